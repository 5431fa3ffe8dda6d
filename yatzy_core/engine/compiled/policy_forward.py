"""The forward pass of any policy, compiled: points-so-far rows pushed through its choices.

`forward.py` pushes max-mean play, whose choices depend on the state only. A target policy's
choices depend on the points still needed too: every points-so-far value x of a state's row
is played with need max(goal - x, 0), one lane each (`policy_turn.lane_outcomes`, lanes worked
in parallel), and each x is pushed along its own lane's outcomes. A risk or mean policy has
one lane: the whole row is shifted along it. Next rows are allocated up to the most points
the used boxes can have given and trimmed to their support once the layer is pushed
(`forward.Rows`), states that cannot differ merged into their representative.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .forward import Rows, _rep, _trim
from .layout import tables
from .policy_turn import TARGET_MODE, PolicyTables, lane_buffers, lane_outcomes
from ...game.states import StateSpace

__all__ = ["push_policy", "tie_layer"]


def _most_so_far(space: StateSpace, states) -> np.ndarray:
    """An upper bound on the points scored so far in each state: its used boxes' maxima and
    every bonus they could have brought."""
    rules = space.rules
    mask = space.decode(np.asarray(states, dtype=np.int64))[0]
    box_max = np.maximum(rules.score_table, rules.joker_table).max(axis=0).astype(np.int64)
    used = (mask[:, None] >> np.arange(rules.n_boxes)) & 1
    most = used @ box_max
    if rules.tracks_upper:
        most += rules.upper_bonus
    if rules.tracks_yahtzee_bonus:
        most += rules.yahtzee_bonus * np.maximum(used.sum(axis=1) - 1, 0)
    return most


def push_policy(space: StateSpace, rows: Rows, pt: PolicyTables, goal: int,
                kind_box: int) -> tuple[Rows, np.ndarray]:
    """Push `rows` (one layer) to the full card under the policy of `pt` (a target policy plays
    for `goal` points in all). Returns the final rows and (n_boxes + 4) sums: each box's
    expected points, then the upper bonus, the Yahtzee bonus, P(upper bonus) and P(kind box
    scored with points)."""
    s, t = tables(space.rules)
    room = space.upper_room
    acc = np.zeros(space.n_boxes + 4)
    where = np.full(space.size, -1, dtype=np.int64)
    first = int(space.boxes_used[space.decode(rows.states[0])[0]]) if len(rows.states) else space.n_boxes
    for k in range(first, space.n_boxes):
        layer = space.layer(k + 1)
        reps = np.unique(space.representatives(layer))
        width = _most_so_far(space, reps) + 1
        nxt = Rows(reps, np.zeros(len(reps), np.int64), np.r_[0, np.cumsum(width)],
                   np.zeros(int(width.sum())))
        where[reps] = np.arange(len(reps))
        _push_layer(rows.states, rows, where, nxt, goal, (s, t, pt, room), acc, kind_box)
        rows = _trim(nxt)
        del nxt
    return rows, acc


CHUNK_BYTES = 64 * 2**20   # outcome buffers of the states worked at once


@njit(cache=True)
def _need(goal, x, top):
    """The lane of x points so far: the need, 0 once met, `top` (band + 1) once out of reach
    (every choice then equally hopeless: the same choices, by the mean)."""
    return min(max(goal - x, 0), top)


@njit(cache=True)
def _lanes(goal, x0, width, target, top):
    """(first need, how many needs) of a row of `width` points from x0."""
    if not target:
        return 0, 1
    cmin = _need(goal, x0 + width - 1, top)
    return cmin, _need(goal, x0, top) - cmin + 1


def _push_layer(live, rows: Rows, where, nxt: Rows, goal, rules, acc, kind_box):
    """Every live state's row pushed along its lanes' outcomes into the next rows (which all
    start at 0 points): chunks of states worked in parallel, then pushed one by one."""
    s, t, pt, room = rules
    target = bool(pt.mode[0] == TARGET_MODE)
    n_rolls, n_boxes = t.score.shape
    widths = np.diff(rows.start)
    top = pt.band[live] + 1 if target else None
    lanes = (np.minimum(np.maximum(goal - rows.lo, 0), top)
             - np.minimum(np.maximum(goal - (rows.lo + widths - 1), 0), top) + 1
             if target else np.ones(len(live), np.int64))
    i = 0
    while i < len(live):
        per_lane = n_rolls * 16 + n_rolls * 8
        j = i + 1
        most = int(lanes[i])
        while j < len(live) and (j - i) < 4096 and (j - i + 1) * max(most, int(lanes[j])) * per_lane < CHUNK_BYTES:
            most = max(most, int(lanes[j]))
            j += 1
        out = lane_buffers(j - i, most, n_rolls, n_boxes)
        _work(live[i:j], rows.lo[i:j], widths[i:j], goal, target, s, t, pt, out)
        _push(i, j, (rows.lo, rows.start, rows.data), where, (nxt.start, nxt.data),
              (s, room, pt.band, live, goal, target), out, acc, kind_box)
        i = j


@njit(parallel=True, cache=True)
def _work(states, lo, widths, goal, target, s, t, pt, out):
    for c in prange(len(states)):
        cmin, n = _lanes(goal, lo[c], widths[c], target, pt.band[states[c]] + 1 if target else 0)
        lane_outcomes(states[c], np.arange(cmin, cmin + n), s, t, pt, out, c)


@njit(cache=True)
def _push(i0, i1, source, where, dest, rules, out, acc, kind_box):
    """Rows i0..i1 of `source` (lo, start, data) pushed along their lanes' outcomes `out` into
    `dest` (start, data); the points each box, bonus and n of a kind adds summed into `acc`."""
    lo, start, data = source
    nstart, ndata = dest
    s, room, band, live, goal, target = rules
    out_n, out_i, out_w, box, pts, nxt, split = out
    n_boxes = pts.shape[2]
    for i in range(i0, i1):
        c = i - i0
        row = data[start[i]:start[i + 1]]
        x0 = lo[i]
        top = band[live[i]] + 1 if target else 0
        cmin, _ = _lanes(goal, x0, len(row), target, top)
        for x in range(len(row)):
            mx = row[x]
            if mx == 0.0:
                continue
            lane = _need(goal, x0 + x, top) - cmin if target else 0
            for m in range(out_n[c, lane]):
                r = out_i[c, lane, m]
                b = box[c, r, lane]
                w = out_w[c, lane, m] * mx
                d = where[_rep(nxt[c, r, b], s, room)]
                at = nstart[d] + x0 + x + pts[c, r, b]
                if d < 0 or at >= nstart[d + 1]:
                    raise ValueError("a next state's row is too short")
                ndata[at] += w
                acc[b] += w * split[c, r, b, 0]
                acc[n_boxes] += w * split[c, r, b, 1]
                acc[n_boxes + 1] += w * split[c, r, b, 2]
                if split[c, r, b, 1] > 0:
                    acc[n_boxes + 2] += w
                if b == kind_box and split[c, r, b, 0] > 0:
                    acc[n_boxes + 3] += w


@njit(parallel=True, cache=True)
def tie_layer(states, W, s, t, pt):
    """W[state, n] = P(gaining at least n - 1 more points) playing every turn for n (the
    target policy of `pt`), for each state of one layer (their next states' rows done):
    each lane's merged outcomes, W of the next state shifted by the points (certain at 1 or
    less). Lanes past the state's band + 1 stay 0: n - 1 points more than it can gain."""
    n_rolls, n_boxes = t.score.shape
    n_max = W.shape[1] - 1
    for c in prange(len(states)):
        state = states[c]
        L = min(pt.band[state] + 1, n_max) + 1
        out = (np.zeros((1, L), np.int64), np.zeros((1, L, n_rolls), np.int64),
               np.zeros((1, L, n_rolls)), np.zeros((1, n_rolls, L), np.int64),
               np.zeros((1, n_rolls, n_boxes), np.int64), np.zeros((1, n_rolls, n_boxes), np.int64),
               np.zeros((1, n_rolls, n_boxes, 3), np.int64))
        lane_outcomes(state, np.arange(L), s, t, pt, out, 0)
        out_n, out_i, out_w, box, pts, nxt = out[0][0], out[1][0], out[2][0], out[3][0], out[4][0], out[5][0]
        for n in range(L):
            acc = 0.0
            for m in range(out_n[n]):
                r = out_i[n, m]
                b = box[r, n]
                rest = n - pts[r, b]
                acc += out_w[n, m] * (1.0 if rest <= 1 else W[nxt[r, b], rest])
            W[state, n] = acc
