"""The forward pass as it was before the compiled turn outcomes: `turn_forward.turn_outcomes` (numpy)
per block of states, a dense row of points per live state. Kept only as the baseline that
benchmarks/distribution.py compares the compiled pass (forward.py) with."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit, prange

from yatzy_core.engine.turn_forward import turn_outcomes

BLOCK = 1024


def numpy_forward(solution) -> np.ndarray:
    """P(final score = x) of optimal play, by the old numpy forward pass."""
    space, values = solution.space, solution.values
    live = np.array([space.index(0, 0, 0)])
    dist, lo, hi = np.ones((1, 1)), np.zeros(1, np.int64), np.zeros(1, np.int64)
    for _ in range(space.n_boxes):
        with ThreadPoolExecutor(2) as pool:   # numpy releases the GIL: two blocks at a time
            parts = list(pool.map(lambda i: _triples(turn_outcomes(space, values, live[i:i + BLOCK]), i),
                                  range(0, len(live), BLOCK)))
        live, dist, lo, hi = _push_layer(dist, lo, hi, parts)
    totals = np.zeros(dist.shape[1])
    for row, a, b in zip(dist, lo, hi):
        totals[a:b + 1] += row[a:b + 1]
    return totals[:int(hi.max()) + 1]


def _triples(o, offset):
    S = o.prob.shape[1]
    n_boxes, span = int(o.box.max()) + 1, int(o.points.max()) + 1
    key = ((np.arange(S) * n_boxes + o.box) * span + o.points).ravel()
    weights = np.bincount(key, weights=o.prob.ravel(), minlength=S * n_boxes * span)
    found = np.flatnonzero(weights > 0)
    nxt = np.empty(len(weights), dtype=np.int64)
    nxt[key] = o.next_state.ravel()
    return found // (n_boxes * span) + offset, nxt[found], found % span, weights[found]


def _push_layer(dist, lo, hi, parts):
    src, nxt, points, weights = (np.concatenate(a) for a in zip(*parts))
    live, dst = np.unique(nxt, return_inverse=True)
    order = np.lexsort((src, dst))
    src, dst, points, weights = src[order], dst[order], points[order], weights[order]
    starts = np.searchsorted(dst, np.arange(len(live) + 1))
    width = int((hi[src] + points).max()) + 1
    out = np.zeros((len(live), width))
    out_lo = np.empty(len(live), np.int64)
    out_hi = np.empty(len(live), np.int64)
    _push(dist, lo, hi, starts, src, points, weights, out, out_lo, out_hi)
    return live, out, out_lo, out_hi


@njit(parallel=True, cache=True)
def _push(dist, lo, hi, starts, src, points, weights, out, out_lo, out_hi):
    for d in prange(len(starts) - 1):
        row = out[d]
        first, last = row.shape[0], -1
        for t in range(starts[d], starts[d + 1]):
            s, p, w = src[t], points[t], weights[t]
            for x in range(lo[s], hi[s] + 1):
                row[x + p] += w * dist[s, x]
            first = min(first, lo[s] + p)
            last = max(last, hi[s] + p)
        out_lo[d] = first
        out_hi[d] = last
