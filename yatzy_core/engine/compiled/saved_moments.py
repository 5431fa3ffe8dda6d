"""The compiled turn of a saved-roll game with the second moment of the points to come.

The values are those of `saved_kernel` (the same stages, the same maxima, bit for bit); beside
each stage's roll values W_j it carries M_j, E[(points still to come)^2 | roll, stage j], along
the choices the advisor makes (`ranking.choices`, the one tie rule of `turn.TIE`):

* scoring now wins over rerolling when it is within TIE of the best keeper (it saves rolls);
* among boxes, the first in card order within TIE of the best box (`kernel._last_roll_second`);
* among keepers, those rerolling at least one die (keeping all is scoring now), the most dice
  first, then the first in keeper order, within TIE of the best of them.

Scoring p points now with j rolls left into a next state worth (V, M) with j saved gives
p^2 + 2 p V + M; a keeper's M is the mean of M_{j-1} over the rolls it leads to.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..basics import TIE
from .kernel import _average, _best_child, _first_roll, _last_roll, _last_roll_second, _preferred_keeper
from .layout import LANES, Settings, Tables, _upper_step, allowed_boxes, vectorizing
from .saved_kernel import _row

__all__ = ["solve_saved_moments_layer"]


def solve_saved_moments_layer(s: Settings, t: Tables, groups: np.ndarray, rank: np.ndarray,
                              later: np.ndarray, later2: np.ndarray, out: np.ndarray,
                              out2: np.ndarray) -> None:
    """Write into `out` and `out2` (this layer's rows x saved counts) the start-of-turn value and
    second moment of every state in `groups` for every saved count, reading the next layer's
    `later` and `later2`."""
    with vectorizing():
        _solve(groups, rank, later, later2, out, out2, s, t)


@njit(parallel=True, cache=True)
def _solve(groups, rank, later, later2, out, out2, s, t):
    n_groups = len(groups)
    n_chunks = min(n_groups, 256)
    n_keepers = t.add_die.shape[0]
    n_rolls, n_boxes = t.score.shape
    stages = out.shape[1] + s.rolls_per_turn - 1          # J + 1
    for c in prange(n_chunks):
        w, w2, own = np.empty((n_keepers, LANES)), np.empty((n_keepers, LANES)), np.empty((n_keepers, LANES))
        e, e2 = np.empty((n_rolls, LANES)), np.empty((n_rolls, LANES))
        now, now2 = np.empty((n_rolls, LANES)), np.empty((n_rolls, LANES))
        rows, rows2 = np.empty((n_boxes, s.n_dice + 1, LANES)), np.empty((n_boxes, s.n_dice + 1, LANES))
        boxes = np.empty(n_boxes, dtype=np.int64)
        lane_rows = np.empty(LANES, dtype=np.int64)
        for g in range(c * n_groups // n_chunks, (c + 1) * n_groups // n_chunks):
            lanes = groups[g]
            allowed = allowed_boxes(lanes[0] // s.n_flags // s.n_upper, s)
            for v in range(LANES):
                lane_rows[v] = _row(lanes[v], rank, s)
            for j in range(stages):
                n_open = _box_rows2(rows, rows2, boxes, lanes, later[:, j], later2[:, j], rank, s,
                                    t.face_of_box, allowed)
                if j == 0:
                    _last_roll(e, boxes[:n_open], allowed, rows, t)
                    _last_roll_second(e, e2, boxes[:n_open], rows, rows2, t.points, t.row_of)
                else:
                    _last_roll(now, boxes[:n_open], allowed, rows, t)
                    _last_roll_second(now, now2, boxes[:n_open], rows, rows2, t.points, t.row_of)
                    _keepers(w, w2, own, e, e2, now, s, t)     # from stage j - 1's e, e2
                    for r in range(n_rolls):
                        for v in range(LANES):
                            m = 1.0 * (now[r, v] >= w[s.roll_offset + r, v] - TIE)   # scoring now wins ties
                            e2[r, v] = now2[r, v] * m + e2[r, v] * (1.0 - m)
                            e[r, v] = max(max(e[r, v], w[s.roll_offset + r, v]), now[r, v])
                saved = j - (s.rolls_per_turn - 1)
                if saved >= 0:
                    _first_roll(e, t.first_roll, lane_rows, out[:, saved])
                    _first_roll(e2, t.first_roll, lane_rows, out2[:, saved])


@njit(cache=True)
def _keepers(w, w2, own, e, e2, now, s, t):
    """One reroll from stage j - 1's roll values e and moments e2. Afterwards, for roll r:
    w[off + r] = its best keeper rerolling at least one die and e2[r] = the second moment of
    the preferred one within TIE of it (`kernel._preferred_keeper`, the whole roll kept counted
    out by an own value of -inf), found only for a roll some lane of which rerolls rather than
    score now (`now`; 1.2x less time on Maxi's first 10 boxes); e is left as it was (keeping
    the whole roll is worth e[r], which the value pass's maximum includes: `kernel._reroll`)."""
    off, n_keepers = s.roll_offset, w.shape[0]
    inv = 1.0 / s.faces
    w[off:] = e
    w2[off:] = e2
    for k in range(off - 1, -1, -1):
        _average(w, k, t.add_die, s.faces, inv)
        _average(w2, k, t.add_die, s.faces, inv)
    own[:] = w                             # each keeper's own value, before the maxima
    own[off:] = -np.inf
    w[off:] = -np.inf
    for k in range(1, n_keepers):
        _best_child(w, k, t.sub, t.n_sub[k])
    for r in range(n_keepers - off):
        rerolls = False
        for v in range(LANES):
            rerolls |= now[r, v] < w[off + r, v] - TIE
        if rerolls:
            _preferred_keeper(w, w2, own, e2, r, off, t.pref_keeper, t.pref_start)


@njit(cache=True)
def _box_rows2(rows, rows2, boxes, lanes, later, later2, rank, s, face_of_box, allowed):
    """As `saved_kernel._saved_box_rows`, with rows2: the second moment of filling box b and
    going on with the saved count whose columns `later` (V) and `later2` (M) are given
    (gain^2 + 2 gain V + M)."""
    mask = lanes[0] // s.n_flags // s.n_upper
    n_open = 0
    for b in range(len(face_of_box)):
        if not (allowed >> b) & 1:
            continue
        boxes[n_open] = b
        n_open += 1
        nm = mask | (1 << b)
        f = face_of_box[b]
        for v in range(LANES):
            y = lanes[v] % s.n_flags
            u = (lanes[v] // s.n_flags) % s.n_upper
            if f > 0:
                for c in range(s.n_dice + 1):
                    gain, nu = _upper_step(u, f * c, s)
                    i = _row((nm * s.n_upper + nu) * s.n_flags + y, rank, s)
                    rows[b, c, v] = gain + later[i]
                    rows2[b, c, v] = gain * gain + 2.0 * gain * later[i] + later2[i]
            else:
                i = _row((nm * s.n_upper + u) * s.n_flags + y, rank, s)
                rows[b, 0, v] = rows[b, 1, v] = later[i]
                rows2[b, 0, v] = rows2[b, 1, v] = later2[i]
    return n_open
