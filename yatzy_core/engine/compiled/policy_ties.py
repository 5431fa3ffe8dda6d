"""The beat policy's ties, compiled: a third number carried backwards along the target policy.

Playing to beat a known score S is playing for n = S + 1 points (a target policy); it wins with
the target table's V(start, n) and ties with W(start, n) - V(start, n), where W(state, n) is the
chance of gaining at least n - 1 more points playing every turn for n. W is not a maximum: it
follows the target policy's choices (best V, then the best mean within TIE, then the preferred
one, as `policy_turn` chooses). So each lane of needs is worked backwards as the forward pass
works it (`policy_lanes.last_roll8`, `reroll_stage`), with W carried beside the two numbers that
choose: each last roll's W is its chosen slot's, each keeper's the average of its rolls'
(`policy_lanes.follow_stage`), and W(state, n) the first roll's average. No forward spread, no
merge: the turn's cost is the target table's turn with two more averaged numbers.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .layout import LANES
from .policy_lanes import follow_stage, last_roll8, reroll_stage
from .policy_turn import (_allowed, _open_boxes, _slot_table, _state_slots, _value_slots, _work,
                          target_values)

__all__ = ["tie_layer"]

BLOCKS = 256   # runs of a layer's states, one thread's working arrays each


def tie_layer(states, W, s, t, pt, n_slots):
    """W[state, n] = P(gaining at least n - 1 more points) playing every turn for n (the
    target policy of `pt`), for each state of one layer (their next states' rows of W done):
    W of the next state shifted by the points (certain at 1 or less), averaged along the
    policy's choices. Lanes past the state's band + 1 stay as they are (0: n - 1 points more than
    it can gain). n_slots: `policy_turn.n_slots_most`."""
    states = np.asarray(states, np.int64)
    ends = np.linspace(0, len(states), min(BLOCKS, len(states)) + 1).astype(np.int64)
    _tie_blocks(states, ends, W, s, t, pt, n_slots)


@njit(parallel=True, cache=True)
def _tie_blocks(states, ends, W, s, t, pt, n_slots):
    for b in prange(len(ends) - 1):
        _tie_block(states[ends[b]:ends[b + 1]], W, s, t, pt, n_slots)


@njit(cache=True)
def _tie_block(states, W, s, t, pt, n_slots):
    """`tie_layer` for a run of states, in one thread's working arrays."""
    n_rolls, n_boxes = t.score.shape
    n_max = W.shape[1] - 1
    alw, every = np.zeros((n_rolls, n_boxes), np.bool_), np.ones((n_rolls, n_boxes), np.bool_)
    slot_of = np.zeros((n_rolls, n_boxes), np.int64)
    spts, snxt = np.zeros(n_slots, np.int64), np.zeros(n_slots, np.int64)
    split = np.zeros((n_slots, 3), np.int64)
    w = _work(t, s, n_slots)
    k3, e3, w8 = np.empty((t.add_die.shape[0], LANES)), np.empty((n_rolls, LANES)), np.empty((n_slots, LANES))
    needs = np.empty(LANES, np.int64)
    K = pt.tie[0]
    n_cls = len(pt.cls_box)
    for state in states:
        L = min(pt.band[state] + 1, n_max) + 1
        n = _state_slots(state, s, t, pt, alw, slot_of, spts, snxt, split)
        al, slots = _slot_table(state, s, pt, alw, slot_of, every)
        boxes, allowed = _open_boxes(state, s, n_boxes), _allowed(state, s)
        _value_slots(n, spts, snxt, pt, w.p1, w.m1, allowed)   # the means: every lane's
        for v in range(LANES):
            w.m8[:n, v] = w.m1[:n]
        for l0 in range(0, L, LANES):
            last = min(l0 + LANES, L) - 1                # a short group repeats its last need
            for v in range(LANES):
                needs[v] = min(l0 + v, last)
            target_values(w.p8, n, allowed, needs, spts, snxt, pt)
            for q in range(n):
                if q < n_cls and (allowed >> pt.cls_box[q]) & 1 == 0:
                    continue                        # a closed box's class: never read
                row = W[snxt[q]]
                for v in range(LANES):
                    rest = needs[v] - spts[q]
                    w8[q, v] = 1.0 if rest <= 1 else row[rest]
            last_roll8(al, slots, boxes, w.p8, w.m8, pt, K, w.e1, w.e2, w.box)
            for r in range(n_rolls):
                for v in range(LANES):
                    e3[r, v] = w8[slots[r, w.box[r, v]], v]
            for stage in range(s.rolls_per_turn - 1):
                reroll_stage(w.rows, w.e1, w.e2, w.choice[stage], pt, K, s, t)
                follow_stage(k3, e3, w.choice[stage], s, t)
            for v in range(min(LANES, L - l0)):
                acc = 0.0
                for r in range(n_rolls):
                    acc += t.first_roll[r] * e3[r, v]
                W[state, l0 + v] = acc
