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
from numba import get_num_threads, njit

from .forward import Rows, _rep, _trim
from .kernel import tables, vectorizing
from .policy_turn import TARGET_MODE, PolicyTables, lane_outcomes
from ...game.states import StateSpace

__all__ = ["push_policy"]


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
        with vectorizing():
            _push_layer(rows.states, rows.lo, rows.start, rows.data, where, nxt.start, nxt.data,
                        goal, (s, t, pt, room), acc, kind_box, get_num_threads())
        rows = _trim(nxt)
        del nxt
    return rows, acc


@njit(cache=True)
def _push_layer(live, lo, start, data, where, nstart, ndata, goal, rules, acc, kind_box, parts):
    """Every live state's row pushed along its lanes' outcomes into the next rows (which all
    start at 0 points)."""
    s, t, pt, room = rules
    n_boxes = t.score.shape[1]
    target = pt.mode[0] == TARGET_MODE
    for i in range(len(live)):
        row = data[start[i]:start[i + 1]]
        x0 = lo[i]
        cmin = max(goal - (x0 + len(row) - 1), 0) if target else 0
        cmax = max(goal - x0, 0) if target else 0
        needs = np.arange(cmin, cmax + 1)
        out_n, out_i, out_w, box, pts, nxt, split = lane_outcomes(live[i], needs, s, t, pt, parts)
        for x in range(len(row)):
            mx = row[x]
            if mx == 0.0:
                continue
            lane = max(goal - x0 - x, 0) - cmin if target else 0
            for m in range(out_n[lane]):
                r = out_i[lane, m]
                b = box[r, lane]
                w = out_w[lane, m] * mx
                d = where[_rep(nxt[r, b], s, room)]
                at = nstart[d] + x0 + x + pts[r, b]
                if d < 0 or at >= nstart[d + 1]:
                    raise ValueError("a next state's row is too short")
                ndata[at] += w
                acc[b] += w * split[r, b, 0]
                acc[n_boxes] += w * split[r, b, 1]
                acc[n_boxes + 1] += w * split[r, b, 2]
                if split[r, b, 1] > 0:
                    acc[n_boxes + 2] += w
                if b == kind_box and split[r, b, 0] > 0:
                    acc[n_boxes + 3] += w
