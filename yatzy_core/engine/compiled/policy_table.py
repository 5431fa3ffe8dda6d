"""A lexicographic table, compiled: each state's (primary, tie-break) pair from its next states'.

The target kernel (`target_kernel`) takes its maxima lane by lane, so it cannot carry a value
made of two lanes chosen together (`choice.Lexicographic`: the best primary; of the choices
within TIE of it, the best tie-break; then the preferred one; the pair carried is the chosen
choice's). The compiled policy already chooses that way (`policy_lanes.last_roll8`,
`reroll_stage`), from data: a slot's primary value weight[p] * primary[next] + shift[p] and
its tie-break p + values[next] (`PolicyTables`). This module works that turn backwards only,
LANES states at a time (one lane each, as `policy_turn.state_outcomes` does, without the
forward spread), and writes each state's pair at the start of its turn. No kernel names an
objective: the objective's table is the `primary` and `values` arrays the tables point at,
filled layer by layer, and its combine is their `weight` and `shift`.

The start value is the keepers recursion down to the empty keeper (`turn.keeper_values`'s sums
in its order), so the pair is the turn engine's bit for bit, not merely within rounding.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernel import _average
from .layout import LANES
from .policy_lanes import last_roll, last_roll8, reroll_stage
from .policy_turn import _allowed, _open_boxes, _state_slots, _value_slots, _work, has_jokers

__all__ = ["BLOCKS", "pair_layer"]

BLOCKS = 64   # runs of a chunk's states, one thread's working arrays each


def pair_layer(states, first, second, s, t, pt, n_slots) -> None:
    """first[x], second[x] = the (primary, tie-break) pair at the start of the turn of each
    state x of `states` (one layer's: their next states' pairs are in `pt.primary`, `pt.values`,
    which may be `first`, `second` themselves). n_slots: `policy_turn.n_slots_most`."""
    states = np.asarray(states, np.int64)
    groups = (len(states) + LANES - 1) // LANES
    ends = np.linspace(0, groups, min(BLOCKS, groups) + 1).astype(np.int64) * LANES
    _pair_blocks(states, np.minimum(ends, len(states)), first, second, s, t, pt, n_slots)


@njit(parallel=True, cache=True)
def _pair_blocks(states, ends, first, second, s, t, pt, n_slots):
    for b in prange(len(ends) - 1):
        _pair_block(states[ends[b]:ends[b + 1]], first, second, s, t, pt, n_slots)


@njit(cache=True)
def _pair_block(states, first, second, s, t, pt, n_slots):
    """`pair_layer` for a run of states in one thread's working arrays, LANES at a time."""
    n_rolls, n_boxes = t.score.shape
    w = _work(t, s, n_slots)
    alw = np.zeros((n_rolls, n_boxes), np.bool_)
    slot_of = np.zeros((n_rolls, n_boxes), np.int64)
    spts, snxt = np.zeros(n_slots, np.int64), np.zeros(n_slots, np.int64)
    split = np.zeros((n_slots, 3), np.int64)
    scratch = (alw, slot_of, spts, snxt, split, np.ones((n_rolls, n_boxes), np.bool_), np.arange(n_boxes),
               np.zeros(LANES, np.bool_))
    k1, k2 = w.rows[0], w.rows[1]
    for g in range(0, len(states), LANES):
        group = states[g:g + LANES]
        _last_rolls(group, w, scratch, s, t, pt)
        for stage in range(s.rolls_per_turn - 1):
            reroll_stage(w.rows, w.e1, w.e2, w.choice[stage], pt, pt.tie[0], s, t)
        off, inv = s.roll_offset, 1.0 / s.faces
        k1[off:] = w.e1
        k2[off:] = w.e2
        for k in range(off - 1, -1, -1):   # down to the empty keeper: the start of the turn
            _average(k1, k, t.add_die, s.faces, inv)
            _average(k2, k, t.add_die, s.faces, inv)
        for v in range(len(group)):
            first[group[v]], second[group[v]] = k1[0, v], k2[0, v]


@njit(cache=True)
def _last_rolls(group, w, scratch, s, t, pt):
    """Each last roll's chosen box and pair into w.e1, w.e2 for up to LANES states (a short
    group repeats its last state): states without jokers share the score classes and choose
    together (`last_roll8`), a state with jokers chooses over its own slots alone. `scratch`:
    one state's slots (`policy_turn._state_slots`), every (roll, box) allowed, the boxes, `alone`."""
    alw, slot_of, spts, snxt, split, every, all_boxes, alone = scratch
    n, n_cls, K = len(group), len(pt.cls_box), pt.tie[0]
    alone[:] = False
    for v in range(n):
        n_slots = _state_slots(group[v], s, t, pt, alw, slot_of, spts, snxt, split)
        _value_slots(n_slots, spts, snxt, pt, w.p1, w.m1, _allowed(group[v], s))
        if has_jokers(group[v], s):
            alone[v] = True
            last_roll(alw, slot_of, _open_boxes(group[v], s, alw.shape[1]), w.p1[:n_slots].reshape(n_slots, 1),
                      w.m1[:n_slots].reshape(n_slots, 1), pt, K, w.e1[:, v:v + 1], w.e2[:, v:v + 1],
                      w.box[:, v:v + 1])
        else:
            w.p8[:n_cls, v], w.m8[:n_cls, v] = w.p1[:n_cls], w.m1[:n_cls]   # a closed box's: LOW
    for v in range(n, LANES):
        alone[v] = alone[n - 1]
        w.p8[:n_cls, v], w.m8[:n_cls, v] = w.p8[:n_cls, n - 1], w.m8[:n_cls, n - 1]
    if not alone.any():
        last_roll8(every, pt.cls, all_boxes, w.p8, w.m8, pt, K, w.e1, w.e2, w.box)
        return
    for v in range(n):
        if not alone[v]:
            last_roll(every, pt.cls, _open_boxes(group[v], s, all_boxes.shape[0]), w.p8[:n_cls, v:v + 1],
                      w.m8[:n_cls, v:v + 1], pt, K, w.e1[:, v:v + 1], w.e2[:, v:v + 1], w.box[:, v:v + 1])
    for v in range(n, LANES):
        w.e1[:, v], w.e2[:, v], w.box[:, v] = w.e1[:, n - 1], w.e2[:, n - 1], w.box[:, n - 1]
