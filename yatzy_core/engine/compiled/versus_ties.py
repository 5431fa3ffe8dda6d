"""Two players' chance of a tie, compiled: a second number carried along the value's choices.

A two-player turn chooses by W (the mover's P(win) + 1/2 P(tie)) and, among choices within TIE
of the best, by the package's one preference order (boxes: card order; keepers: most dice, then
`dice.keepers` order). Its chance of a tie T is not a maximum: it follows those choices. So
each lead lane is worked backwards the way the compiled policies work a lane
(`policy_lanes.last_roll8` for the box, W choosing with every tie-break value equal, so the
preference order decides a tie on W), and T carried beside it, as the beat policy's ties are
(`policy_ties`); the rerolls here have no tie-break value to average or walk (`_reroll_both`). A lead lane i
(lead i - reach) that scores p points reads the next card's lane i + p; past the last lane the
lead is beyond what the waiter can make up: W 1, T 0. The numpy path (`two_player._turn`) is
the reference; tests/test_versus_compiled.py compares them.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..basics import TIE
from .kernel import _average, _best_child
from .layout import LANES
from .policy_lanes import last_roll8
from .policy_turn import PolicyTables, _allowed, _open_boxes, _slot_table, _state_slots, _work, n_slots_most, \
    score_classes

__all__ = ["tie_tables", "tie_turns"]

BLOCKS = 64   # runs of the movers, one thread's working arrays each


def tie_tables(t) -> PolicyTables:
    """The policy tables the lanes' choices read: the rule set's score classes and the plain tie
    scale (within TIE of the best); no tie-break value (every mean 0) and no target table."""
    dummy, none = np.zeros(1), np.zeros(1, np.int64)
    return PolicyTables(dummy, dummy, none, none, dummy, dummy, dummy, np.array([1.0, TIE]),
                        np.array([0], np.int64), *score_classes(t.score))


def tie_turns(movers, later_w, later_t, row_of, lo, hi, s, t) -> tuple[np.ndarray, np.ndarray]:
    """(W, T): each mover's value and chance of a tie for every lead lane, (len(movers), width).
    later_w, later_t: (ends, width) the two numbers of ending the turn in each card of the next
    layer (row row_of[card]) with each lead lane; only lanes lo[i] .. hi[i] of mover i are worked
    (the others decided: W 1 above hi, 0 below lo, T 0 both)."""
    pt = tie_tables(t)
    movers = np.ascontiguousarray(movers, np.int64)
    width = later_w.shape[1]
    lanes = np.arange(width)
    W = np.where(lanes[None, :] > np.asarray(hi)[:, None], 1.0, 0.0)
    T = np.zeros_like(W)
    ends = np.linspace(0, len(movers), min(BLOCKS, len(movers)) + 1).astype(np.int64)
    later = (np.ascontiguousarray(later_w, np.float64), np.ascontiguousarray(later_t, np.float64),
             np.asarray(row_of, np.int64), np.asarray(lo, np.int64), np.asarray(hi, np.int64))
    _tie_blocks(movers, ends, later, W, T, s, t, pt, n_slots_most(pt, t))
    return W, T


@njit(parallel=True, cache=True)
def _tie_blocks(movers, ends, later, W, T, s, t, pt, n_slots):
    for b in prange(len(ends) - 1):
        _tie_block(movers[ends[b]:ends[b + 1]], ends[b], later, W, T, s, t, pt, n_slots)


@njit(cache=True)
def _tie_block(movers, first, later, W, T, s, t, pt, n_slots):
    """`tie_turns` for a run of movers (rows first, first + 1, ... of W and T), in one thread's
    working arrays; `later` is (later_w, later_t, row_of, lo, hi)."""
    later_w, later_t, row_of, lo, hi = later
    n_rolls, n_boxes = t.score.shape
    width = later_w.shape[1]
    alw, every = np.zeros((n_rolls, n_boxes), np.bool_), np.ones((n_rolls, n_boxes), np.bool_)
    slot_of = np.zeros((n_rolls, n_boxes), np.int64)
    spts, snxt = np.zeros(n_slots, np.int64), np.zeros(n_slots, np.int64)
    split = np.zeros((n_slots, 3), np.int64)
    w = _work(t, s, n_slots)
    w.m8[:] = 0.0                                  # no tie-break value: the preference order decides
    k3, e3, w8 = np.empty((t.add_die.shape[0], LANES)), np.empty((n_rolls, LANES)), np.empty((n_slots, LANES))
    lane = np.empty(LANES, np.int64)
    K = pt.tie[0]
    n_cls = len(pt.cls_box)
    for m in range(len(movers)):
        state, i = movers[m], first + m
        n = _state_slots(state, s, t, pt, alw, slot_of, spts, snxt, split)
        al, slots = _slot_table(state, s, pt, alw, slot_of, every)
        boxes, allowed = _open_boxes(state, s, n_boxes), _allowed(state, s)
        for l0 in range(lo[i], hi[i] + 1, LANES):
            last = min(l0 + LANES, hi[i] + 1) - 1          # a short group repeats its last lane
            for v in range(LANES):
                lane[v] = min(l0 + v, last)
            for q in range(n):
                if q < n_cls and (allowed >> pt.cls_box[q]) & 1 == 0:
                    continue                        # a closed box's class: never read
                row = row_of[snxt[q]]
                for v in range(LANES):
                    j = lane[v] + spts[q]
                    inside = j < width
                    w.p8[q, v] = later_w[row, j] if inside else 1.0
                    w8[q, v] = later_t[row, j] if inside else 0.0
            last_roll8(al, slots, boxes, w.p8, w.m8, pt, K, w.e1, w.e2, w.box)
            for r in range(n_rolls):
                for v in range(LANES):
                    e3[r, v] = w8[slots[r, w.box[r, v]], v]
            for stage in range(s.rolls_per_turn - 1):
                _reroll_both(w.rows[0], k3, w.rows[2], w.e1, e3, w.choice[stage], s, t)
            for v in range(min(LANES, hi[i] + 1 - l0)):
                a, b = 0.0, 0.0
                for r in range(n_rolls):
                    a += t.first_roll[r] * w.e1[r, v]
                    b += t.first_roll[r] * e3[r, v]
                W[i, l0 + v], T[i, l0 + v] = a, b


@njit(cache=True)
def _reroll_both(k1, k3, top, e1, e3, choice, s, t):
    """One reroll stage backwards for LANES lanes: W (e1) and T (e3) of each roll at the next
    stage in, their keeper averages into k1 and k3; each roll's keeper (the most preferred within
    TIE of its best sub-keeper's W) into `choice`, and its W and T out."""
    off = s.roll_offset
    inv = 1.0 / s.faces
    k1[off:] = e1
    k3[off:] = e3
    for k in range(off - 1, -1, -1):
        _average(k1, k, t.add_die, s.faces, inv)
        _average(k3, k, t.add_die, s.faces, inv)
    top[:] = k1
    for k in range(1, len(k1)):
        _best_child(top, k, t.sub, t.n_sub[k])
    for r in range(e1.shape[0]):
        _first_good(k1, top[off + r], t.pref_keeper, t.pref_start[r], t.pref_start[r + 1], choice[r])
        for v in range(LANES):
            k = choice[r, v]
            e1[r, v], e3[r, v] = k1[k, v], k3[k, v]


@njit(cache=True)
def _first_good(k1, best, pref_keeper, first, last, out):
    """out[v]: the most preferred keeper (pref_keeper[first:last] in preference order) whose W
    k1[k, v] is within TIE of best[v]: the keepers walked from the least preferred up, the last
    good one kept, lanes in scalars (as `policy_lanes._tie_keeper`, without its tie-break walk)."""
    t0, t1, t2, t3 = best[0] - TIE, best[1] - TIE, best[2] - TIE, best[3] - TIE
    t4, t5, t6, t7 = best[4] - TIE, best[5] - TIE, best[6] - TIE, best[7] - TIE
    c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = 0.0
    i = np.uint64(last)
    stop = np.uint64(first)
    while i > stop:
        i -= np.uint64(1)
        k = np.uint64(pref_keeper[i])
        kf = float(k)
        c0, c1 = kf if k1[k, 0] >= t0 else c0, kf if k1[k, 1] >= t1 else c1
        c2, c3 = kf if k1[k, 2] >= t2 else c2, kf if k1[k, 3] >= t3 else c3
        c4, c5 = kf if k1[k, 4] >= t4 else c4, kf if k1[k, 5] >= t5 else c5
        c6, c7 = kf if k1[k, 6] >= t6 else c6, kf if k1[k, 7] >= t7 else c7
    out[0], out[1], out[2], out[3] = int(c0), int(c1), int(c2), int(c3)
    out[4], out[5], out[6], out[7] = int(c4), int(c5), int(c6), int(c7)
