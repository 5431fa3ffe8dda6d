"""The compiled turn of a game with saved rolls: every saved count of a state in one pass.

What a roll is worth with j rerolls left does not depend on how many rolls were saved before the
turn: scoring now saves j, rerolling leaves j - 1. So one pass over the stages j = 0, 1, ...,
J = (rolls_per_turn - 1) * (used + 1) gives, for every roll,

    W_0(roll) = best box now + V(next, saved 0)
    W_j(roll) = max(best box now + V(next, saved j), best keeper's mean of W_{j-1}),

and the value of the state with s rolls saved is the mean of W_{rolls_per_turn - 1 + s} over the
first roll. A state with `used` boxes used can hold at most (rolls_per_turn - 1) * used saved rolls.

Values live in one array per layer (boxes used): row rank[mask] * U * F + upper * F + flag, one
column per saved count. The stage helpers are those of `kernel` (the same keeper recursion).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernel import _first_roll, _last_roll, _reroll
from .layout import LANES, Settings, Tables, _upper_step, allowed_boxes, vectorizing

__all__ = ["solve_saved_layer"]


def solve_saved_layer(s: Settings, t: Tables, groups: np.ndarray, rank: np.ndarray,
                      later: np.ndarray, out: np.ndarray) -> None:
    """Write into `out` (this layer's rows x saved counts) the start-of-turn value of every state
    in `groups` for every saved count, reading `later` (the next layer's rows x saved counts)."""
    with vectorizing():
        _solve_saved(groups, rank, later, out, s, t)


@njit(cache=True)
def _row(state, rank, s):
    """A state's row in its layer's array."""
    per_set = s.n_upper * s.n_flags
    return rank[state // per_set] * per_set + state % per_set


@njit(parallel=True, cache=True)
def _solve_saved(groups, rank, later, out, s, t):
    n_groups = len(groups)
    n_chunks = min(n_groups, 256)
    n_keepers = t.add_die.shape[0]
    n_rolls, n_boxes = t.score.shape
    stages = out.shape[1] + s.rolls_per_turn - 1          # J + 1
    for c in prange(n_chunks):
        w = np.empty((n_keepers, LANES))
        dummy = np.zeros((1, LANES))
        dummy2 = np.zeros((n_rolls, LANES))
        now = np.empty((n_rolls, LANES))
        rows = np.empty((n_boxes, s.n_dice + 1, LANES))
        boxes = np.empty(n_boxes, dtype=np.int64)
        lane_rows = np.empty(LANES, dtype=np.int64)
        for g in range(c * n_groups // n_chunks, (c + 1) * n_groups // n_chunks):
            lanes = groups[g]
            e = w[s.roll_offset:]
            mask = lanes[0] // s.n_flags // s.n_upper
            allowed = allowed_boxes(mask, s)
            for v in range(LANES):
                lane_rows[v] = _row(lanes[v], rank, s)
            for j in range(stages):
                n_open = _saved_box_rows(rows, boxes, lanes, later, rank, j, s, t.face_of_box, allowed)
                if j == 0:
                    _last_roll(e, boxes[:n_open], allowed, rows, t)
                else:
                    _reroll(w, dummy, dummy, dummy2, False, s, t)
                    _last_roll(now, boxes[:n_open], allowed, rows, t)
                    for r in range(n_rolls):
                        for v in range(LANES):
                            e[r, v] = max(e[r, v], now[r, v])
                saved = j - (s.rolls_per_turn - 1)
                if saved >= 0:
                    _first_roll(e, t.first_roll, lane_rows, out[:, saved])


@njit(cache=True)
def _saved_box_rows(rows, boxes, lanes, later, rank, saved, s, face_of_box, allowed):
    """rows[b, c, v] (upper box, face shown c times: its points and bonus included) or rows[b, 0, v]
    (lower box): the value of filling box b and starting the next turn with `saved` rolls.

    The same walk as `kernel._box_rows`, kept apart on purpose: that one reads a value by state
    index and carries second moments and the outcomes' records; this one reads a layer's row and a
    saved count's column, and has no Yahtzee flag (saved rolls refuse the bonus and the joker).
    One function for both needs the row lookup (an array indirection) or a function argument in
    the mean solver's path, or an 11th parameter; the two stay small instead."""
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
                    rows[b, c, v] = gain + later[_row((nm * s.n_upper + nu) * s.n_flags + y, rank, s), saved]
            else:
                j = _row((nm * s.n_upper + u) * s.n_flags + y, rank, s)
                rows[b, 0, v] = later[j, saved]
                rows[b, 1, v] = later[j, saved]
    return n_open
