"""The rerolls of a policy's turn for LANES lanes at once: keepers averaged, chosen, followed.

A lane is one need of a target policy, or one state of a risk or mean policy (`policy_turn`).
Its rerolls are the same arithmetic in every lane, so they are worked LANES at a time on
(keepers x LANES) arrays, the lanes spelled out as scalars (the way `kernel._average` holds
them) so that the compiler makes vector code of them: the keeper averages of both numbers (the
primary value and the mean), the best primary over each roll's sub-keepers, the tie walk; the
final roll's probabilities are then moved through the chosen keepers by `outcomes._forward`,
the max-mean pass's own.

The tie walk is written select-style (as `outcomes._preferred`): over a roll's keepers in
preference order, the best mean among those within TIE of the best primary and how many are;
only where a lane has more than one, a second walk from the least preferred up keeps the last
keeper within TIE of both, so the most preferred one wins. The choices are those of the
one-lane-at-a-time pass this replaced, bit for bit (the same sums in the same order), except where
a risk value underflows to 0, which the old test on the log scale ranked below every other.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .kernel import _average, _best_child
from .layout import LANES
from ..basics import TIE

__all__ = ["tie_floor", "last_roll", "last_roll8", "reroll_stage", "follow_stage"]

LOW = -1e300   # below every value
assert LANES == 8, "the lane helpers below spell out 8 lanes"


@njit(cache=True, inline="always")   # a call would copy the tables' tuples each time
def tie_floor(pt, x, K):
    """The least primary value within TIE of x on the policy's tie scale: x * K - pt.tie[1]
    (K = pt.tie[0]). For risk that scale is the certainty equivalent log(sign(theta) x) / theta,
    increasing in x: CE(y) >= CE(x) - TIE is y >= x * K with K = exp(-theta TIE), no log taken
    (tie [K, 0]); otherwise y >= x - TIE (tie [1, TIE]: x * 1.0 is x, exactly)."""
    return x * K - pt.tie[1]


@njit(cache=True)
def last_roll(alw, slot_of, boxes, p1, m, pt, K, e1, e2, box):
    """Each last roll's box for the lanes of e1 (any number: used for one lane, a state with
    jokers, its own slots; `last_roll8` is the same for 8), among `boxes` (in card order: the
    open ones) where alw allows: best primary (p1[slot, lane]), then best mean (m[slot, lane])
    within TIE of it, then the first in card order (the boxes walked from the last, the last
    good one kept); its two values into e1, e2."""
    n_rolls = alw.shape[0]
    n_open = len(boxes)
    lanes = e1.shape[1]
    best = np.empty(lanes)
    floor = np.empty(lanes)
    mean = np.empty(lanes)
    for r in range(n_rolls):
        best[:] = -np.inf
        for i in range(n_open):
            b = boxes[i]
            if alw[r, b]:
                q = slot_of[r, b]
                for v in range(lanes):
                    best[v] = max(best[v], p1[q, v])
        for v in range(lanes):
            floor[v] = tie_floor(pt, best[v], K)
            mean[v] = LOW
        for i in range(n_open):
            b = boxes[i]
            if alw[r, b]:
                q = slot_of[r, b]
                for v in range(lanes):
                    mq = m[q, v]
                    mean[v] = max(mean[v], mq) if p1[q, v] >= floor[v] else mean[v]
        for i in range(n_open - 1, -1, -1):
            b = boxes[i]
            if alw[r, b]:
                q = slot_of[r, b]
                for v in range(lanes):
                    mq = m[q, v]
                    ok = (p1[q, v] >= floor[v]) & (mq >= mean[v] - TIE)
                    e1[r, v] = p1[q, v] if ok else e1[r, v]
                    e2[r, v] = mq if ok else e2[r, v]
                    box[r, v] = b if ok else box[r, v]


@njit(cache=True)
def last_roll8(alw, slot_of, boxes, p1, m, pt, K, e1, e2, box):
    """`last_roll` for LANES lanes, each with its own means (m: slots x LANES), the lanes spelled
    out as scalars so that they pack into vectors (`last_roll`'s loop over lanes stays scalar:
    ~2x slower), the box carried as a float for the same reason, the indices unsigned (signed
    ones cost each read a test for a negative index: 1.3x)."""
    D = pt.tie[1]
    n_open = len(boxes)
    for r in range(np.uint64(alw.shape[0])):
        a0, a1, a2, a3 = -np.inf, -np.inf, -np.inf, -np.inf
        a4, a5, a6, a7 = -np.inf, -np.inf, -np.inf, -np.inf
        for i in range(np.uint64(n_open)):
            b = np.uint64(boxes[i])
            if alw[r, b]:
                q = np.uint64(slot_of[r, b])
                a0, a1, a2, a3 = max(a0, p1[q, 0]), max(a1, p1[q, 1]), max(a2, p1[q, 2]), max(a3, p1[q, 3])
                a4, a5, a6, a7 = max(a4, p1[q, 4]), max(a5, p1[q, 5]), max(a6, p1[q, 6]), max(a7, p1[q, 7])
        a0, a1, a2, a3 = a0 * K - D, a1 * K - D, a2 * K - D, a3 * K - D   # tie_floor, lane by lane
        a4, a5, a6, a7 = a4 * K - D, a5 * K - D, a6 * K - D, a7 * K - D
        b0, b1, b2, b3 = LOW, LOW, LOW, LOW
        b4, b5, b6, b7 = LOW, LOW, LOW, LOW
        for i in range(np.uint64(n_open)):
            b = np.uint64(boxes[i])
            if alw[r, b]:
                q = np.uint64(slot_of[r, b])
                b0, b1 = max(b0, m[q, 0] if p1[q, 0] >= a0 else LOW), max(b1, m[q, 1] if p1[q, 1] >= a1 else LOW)
                b2, b3 = max(b2, m[q, 2] if p1[q, 2] >= a2 else LOW), max(b3, m[q, 3] if p1[q, 3] >= a3 else LOW)
                b4, b5 = max(b4, m[q, 4] if p1[q, 4] >= a4 else LOW), max(b5, m[q, 5] if p1[q, 5] >= a5 else LOW)
                b6, b7 = max(b6, m[q, 6] if p1[q, 6] >= a6 else LOW), max(b7, m[q, 7] if p1[q, 7] >= a7 else LOW)
        b0, b1, b2, b3 = b0 - TIE, b1 - TIE, b2 - TIE, b3 - TIE
        b4, b5, b6, b7 = b4 - TIE, b5 - TIE, b6 - TIE, b7 - TIE
        x0, x1, x2, x3 = e1[r, 0], e1[r, 1], e1[r, 2], e1[r, 3]
        x4, x5, x6, x7 = e1[r, 4], e1[r, 5], e1[r, 6], e1[r, 7]
        y0, y1, y2, y3 = e2[r, 0], e2[r, 1], e2[r, 2], e2[r, 3]
        y4, y5, y6, y7 = e2[r, 4], e2[r, 5], e2[r, 6], e2[r, 7]
        c0, c1, c2, c3 = float(box[r, 0]), float(box[r, 1]), float(box[r, 2]), float(box[r, 3])
        c4, c5, c6, c7 = float(box[r, 4]), float(box[r, 5]), float(box[r, 6]), float(box[r, 7])
        i = np.uint64(n_open)
        while i > np.uint64(0):
            i -= np.uint64(1)
            b = np.uint64(boxes[i])
            if alw[r, b]:
                q, bf = np.uint64(slot_of[r, b]), float(b)
                ok = (p1[q, 0] >= a0) & (m[q, 0] >= b0)
                x0, y0, c0 = (p1[q, 0], m[q, 0], bf) if ok else (x0, y0, c0)
                ok = (p1[q, 1] >= a1) & (m[q, 1] >= b1)
                x1, y1, c1 = (p1[q, 1], m[q, 1], bf) if ok else (x1, y1, c1)
                ok = (p1[q, 2] >= a2) & (m[q, 2] >= b2)
                x2, y2, c2 = (p1[q, 2], m[q, 2], bf) if ok else (x2, y2, c2)
                ok = (p1[q, 3] >= a3) & (m[q, 3] >= b3)
                x3, y3, c3 = (p1[q, 3], m[q, 3], bf) if ok else (x3, y3, c3)
                ok = (p1[q, 4] >= a4) & (m[q, 4] >= b4)
                x4, y4, c4 = (p1[q, 4], m[q, 4], bf) if ok else (x4, y4, c4)
                ok = (p1[q, 5] >= a5) & (m[q, 5] >= b5)
                x5, y5, c5 = (p1[q, 5], m[q, 5], bf) if ok else (x5, y5, c5)
                ok = (p1[q, 6] >= a6) & (m[q, 6] >= b6)
                x6, y6, c6 = (p1[q, 6], m[q, 6], bf) if ok else (x6, y6, c6)
                ok = (p1[q, 7] >= a7) & (m[q, 7] >= b7)
                x7, y7, c7 = (p1[q, 7], m[q, 7], bf) if ok else (x7, y7, c7)
        e1[r, 0], e1[r, 1], e1[r, 2], e1[r, 3] = x0, x1, x2, x3
        e1[r, 4], e1[r, 5], e1[r, 6], e1[r, 7] = x4, x5, x6, x7
        e2[r, 0], e2[r, 1], e2[r, 2], e2[r, 3] = y0, y1, y2, y3
        e2[r, 4], e2[r, 5], e2[r, 6], e2[r, 7] = y4, y5, y6, y7
        box[r, 0], box[r, 1], box[r, 2], box[r, 3] = int(c0), int(c1), int(c2), int(c3)
        box[r, 4], box[r, 5], box[r, 6], box[r, 7] = int(c4), int(c5), int(c6), int(c7)


@njit(cache=True)
def reroll_stage(w, e1, e2, choice, pt, K, s, t):
    """One reroll stage backwards for LANES lanes: e1 (primary value) and e2 (mean) of each roll
    at the next stage in; each roll's keeper into `choice` (rolls x LANES) and its two values
    into e1 and e2 out. `w` is the working arrays (k1, k2, top, floor), keepers x LANES."""
    k1, k2, top, floor = w
    off = s.roll_offset
    inv = 1.0 / s.faces
    k1[off:] = e1
    k2[off:] = e2
    for k in range(off - 1, -1, -1):
        _average(k1, k, t.add_die, s.faces, inv)
        _average(k2, k, t.add_die, s.faces, inv)
    top[:] = k1
    for k in range(1, len(k1)):
        _best_child(top, k, t.sub, t.n_sub[k])
    for r in range(e1.shape[0]):
        for v in range(e1.shape[1]):
            floor[r, v] = tie_floor(pt, top[off + r, v], K)
    for r in range(e1.shape[0]):
        _tie_keeper(k1, k2, floor, r, t.pref_keeper, t.pref_start, choice)
    for r in range(e1.shape[0]):
        for v in range(e1.shape[1]):
            k = choice[r, v]
            e1[r, v], e2[r, v] = k1[k, v], k2[k, v]


@njit(cache=True)
def _tie_keeper(k1, k2, floor, r, pref_keeper, pref_start, choice):
    """choice[r] = roll r's most preferred keeper whose primary k1 is at least floor[r] and whose
    mean k2 is within TIE of the best mean among those, lanes in registers. The first walk finds
    that best mean, how many keepers are at the floor, and the last of them; only when a lane has
    more than one (a tie on the primary value) does a second walk, from the least preferred up,
    keep the last good one. Everything is a float (the count, the keeper): selects of one type
    pack into vectors, mixed with integers they stayed scalar (1.35x slower, measured). The
    indices are unsigned: signed ones cost each read a test for a negative index (1.1x)."""
    t0, t1, t2, t3 = floor[r, 0], floor[r, 1], floor[r, 2], floor[r, 3]
    t4, t5, t6, t7 = floor[r, 4], floor[r, 5], floor[r, 6], floor[r, 7]
    b0 = b1 = b2 = b3 = b4 = b5 = b6 = b7 = LOW
    n0 = n1 = n2 = n3 = n4 = n5 = n6 = n7 = 0.0
    c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = 0.0
    first, last = np.uint64(pref_start[r]), np.uint64(pref_start[r + 1])   # unsigned: no wraparound code
    for i in range(first, last):
        k = np.uint64(pref_keeper[i])
        kf = float(k)
        x0, x1, x2, x3, x4, x5, x6, x7 = k1[k, 0], k1[k, 1], k1[k, 2], k1[k, 3], k1[k, 4], k1[k, 5], k1[k, 6], k1[k, 7]
        y0, y1, y2, y3, y4, y5, y6, y7 = k2[k, 0], k2[k, 1], k2[k, 2], k2[k, 3], k2[k, 4], k2[k, 5], k2[k, 6], k2[k, 7]
        b0, b1 = max(b0, y0 if x0 >= t0 else LOW), max(b1, y1 if x1 >= t1 else LOW)
        b2, b3 = max(b2, y2 if x2 >= t2 else LOW), max(b3, y3 if x3 >= t3 else LOW)
        b4, b5 = max(b4, y4 if x4 >= t4 else LOW), max(b5, y5 if x5 >= t5 else LOW)
        b6, b7 = max(b6, y6 if x6 >= t6 else LOW), max(b7, y7 if x7 >= t7 else LOW)
        n0, n1 = n0 + (1.0 if x0 >= t0 else 0.0), n1 + (1.0 if x1 >= t1 else 0.0)
        n2, n3 = n2 + (1.0 if x2 >= t2 else 0.0), n3 + (1.0 if x3 >= t3 else 0.0)
        n4, n5 = n4 + (1.0 if x4 >= t4 else 0.0), n5 + (1.0 if x5 >= t5 else 0.0)
        n6, n7 = n6 + (1.0 if x6 >= t6 else 0.0), n7 + (1.0 if x7 >= t7 else 0.0)
        c0, c1 = kf if x0 >= t0 else c0, kf if x1 >= t1 else c1
        c2, c3 = kf if x2 >= t2 else c2, kf if x3 >= t3 else c3
        c4, c5 = kf if x4 >= t4 else c4, kf if x5 >= t5 else c5
        c6, c7 = kf if x6 >= t6 else c6, kf if x7 >= t7 else c7
    if max(max(max(n0, n1), max(n2, n3)), max(max(n4, n5), max(n6, n7))) > 1.0:   # (a sum: 1.1x slower)
        b0, b1, b2, b3, b4, b5, b6, b7 = b0 - TIE, b1 - TIE, b2 - TIE, b3 - TIE, b4 - TIE, b5 - TIE, b6 - TIE, b7 - TIE
        i = last
        while i > first:
            i -= np.uint64(1)
            k = np.uint64(pref_keeper[i])
            kf = float(k)
            c0 = kf if (k1[k, 0] >= t0) & (k2[k, 0] >= b0) else c0
            c1 = kf if (k1[k, 1] >= t1) & (k2[k, 1] >= b1) else c1
            c2 = kf if (k1[k, 2] >= t2) & (k2[k, 2] >= b2) else c2
            c3 = kf if (k1[k, 3] >= t3) & (k2[k, 3] >= b3) else c3
            c4 = kf if (k1[k, 4] >= t4) & (k2[k, 4] >= b4) else c4
            c5 = kf if (k1[k, 5] >= t5) & (k2[k, 5] >= b5) else c5
            c6 = kf if (k1[k, 6] >= t6) & (k2[k, 6] >= b6) else c6
            c7 = kf if (k1[k, 7] >= t7) & (k2[k, 7] >= b7) else c7
    choice[r, 0], choice[r, 1], choice[r, 2], choice[r, 3] = int(c0), int(c1), int(c2), int(c3)
    choice[r, 4], choice[r, 5], choice[r, 6], choice[r, 7] = int(c4), int(c5), int(c6), int(c7)


@njit(cache=True)
def follow_stage(k3, e3, choice, s, t):
    """One reroll stage backwards for a number that follows the choices without choosing (the
    beat policy's ties): e3 of each roll at the next stage in, its keeper averages into k3
    (keepers x LANES), the value of each roll's chosen keeper (`choice`, from `reroll_stage`) out."""
    off = s.roll_offset
    inv = 1.0 / s.faces
    k3[off:] = e3
    for k in range(off - 1, -1, -1):
        _average(k3, k, t.add_die, s.faces, inv)
    for r in range(e3.shape[0]):
        for v in range(e3.shape[1]):
            e3[r, v] = k3[choice[r, v], v]
