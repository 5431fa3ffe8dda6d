"""The keepers' values of many positions at once, compiled: the batch advisor's inner loop
(`engine.batch_advice`).

For each distinct state the turn is worked backwards as the solver's kernel does (the last
roll's best box, `kernel._last_roll` and `kernel._joker_rolls`; then each reroll stage's keeper
averages, `kernel._average`, and best sub-keepers, `kernel._best_child`), LANES states of one box
set at a time (`layout.lane_groups`), and every position of the state copies the keeper values
of its own stage (its rerolls left) for the keepers inside its roll. The arithmetic is
`turn.keeper_values`'s term for term, so the values equal `advise`'s (tests/test_batch_advice.py).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernel import _average, _best_child, _box_rows, _joker_rolls, _last_roll
from .layout import LANES, Settings, Tables, allowed_boxes, vectorizing

__all__ = ["keeper_options"]


def keeper_options(s: Settings, t: Tables, groups: np.ndarray, lane_state: np.ndarray,
                   starts: np.ndarray, order: np.ndarray, rolls: np.ndarray, rerolls: np.ndarray,
                   values: np.ndarray, out: np.ndarray) -> None:
    """Write out[i, first_keeper + k] = the value of keeping keeper k (fewer dice than a roll)
    for every position i with rerolls left, for the keepers inside its roll. `groups` are the
    distinct states' lane groups, `lane_state` each lane's row in the distinct states, whose
    positions are order[starts[u]:starts[u + 1]]."""
    with vectorizing():
        run = _groups if len(groups) > SERIAL else _serial_groups
        run(groups, lane_state, starts, order, rolls, rerolls, values, s, t, out)


SERIAL = 16   # lane groups done on one thread: waking the others costs more (a single position
              # took 75 ms through the parallel loop on a busy machine, 0.1 ms serially)


@njit(parallel=True, cache=True)
def _groups(groups, lane_state, starts, order, rolls, rerolls, values, s, t, out):
    n_groups = len(groups)
    n_chunks = min(n_groups, 256)
    for c in prange(n_chunks):
        work = _scratch(s, t)
        for g in range(c * n_groups // n_chunks, (c + 1) * n_groups // n_chunks):
            _group(groups[g], lane_state[g], (starts, order, rolls, rerolls), values, s, t, out, work)


@njit(cache=True)
def _serial_groups(groups, lane_state, starts, order, rolls, rerolls, values, s, t, out):
    work = _scratch(s, t)
    for g in range(len(groups)):
        _group(groups[g], lane_state[g], (starts, order, rolls, rerolls), values, s, t, out, work)


@njit(cache=True)
def _scratch(s, t):
    """A thread's working arrays: keeper values, the unused second moments, the box rows."""
    n_rolls, n_boxes = t.score.shape
    return (np.empty((t.add_die.shape[0], LANES)), np.empty((n_rolls, LANES)),
            np.empty((n_boxes, s.n_dice + 1, LANES)), np.empty((n_boxes, s.n_dice + 1, LANES)),
            np.empty(n_boxes, dtype=np.int64), np.empty((1, 1, 1), dtype=np.int64))


@njit(cache=True)
def _group(lanes, lane_state, at, values, s, t, out, work):
    """One lane group: the last roll, then the reroll stages its positions need. `at` is
    (starts, order, rolls, rerolls) of the positions, `work` the thread's scratch arrays."""
    starts, order, rolls, rerolls = at
    keep, e2, rows, rows2, boxes, no_record = work
    off = s.roll_offset
    need = 0
    for v in range(LANES):
        u = lane_state[v]
        for i in order[starts[u]:starts[u + 1]]:
            need = max(need, rerolls[i])
    if need == 0:
        return
    mask = lanes[0] // s.n_flags // s.n_upper
    allowed = allowed_boxes(mask, s)
    n_open = _box_rows(rows, rows2, no_record, no_record, boxes, lanes, values, values, s, t)
    e = keep[off:]
    _last_roll(e, boxes[:n_open], allowed, rows, t)
    if s.tracks_flag == 1 and (mask >> s.yahtzee_index) & 1:
        for v in range(LANES):
            _joker_rolls(e, e2, v, lanes[v], False, values, values, s, t)
    inv = 1.0 / s.faces
    for stage in range(1, need + 1):
        for k in range(off - 1, -1, -1):
            _average(keep, k, t.add_die, s.faces, inv)
        _write(keep, stage, lane_state, at, t, out, rows.shape[0])
        if stage < need:
            for k in range(1, keep.shape[0]):
                _best_child(keep, k, t.sub, t.n_sub[k])


@njit(cache=True)
def _write(keep, stage, lane_state, at, t, out, n_boxes):
    """The keeper values of this stage, for each lane's positions with `stage` rerolls left
    (a lane repeating the one before it is skipped)."""
    starts, order, rolls, rerolls = at
    off = t.level_start[len(t.level_start) - 2]      # the first roll of all the dice
    for v in range(LANES):
        u = lane_state[v]
        if v > 0 and u == lane_state[v - 1]:
            continue
        for i in order[starts[u]:starts[u + 1]]:
            if rerolls[i] != stage:
                continue
            r = rolls[i]
            for j in range(t.pref_start[r], t.pref_start[r + 1]):
                k = t.pref_keeper[j]
                if k < off:
                    out[i, n_boxes + k] = keep[k, v]
