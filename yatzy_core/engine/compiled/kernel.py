"""The solver's compiled inner loop: one turn for every state of a layer, in numba.

It computes exactly what `turn.turn_values` computes with numpy (the tests check they agree),
organised for the machine:

* States that share their used boxes (one box set) are solved together, LANES at a time: they
  differ only in the upper total and the Yahtzee flag, so the open boxes, the roll scores and the
  whole keeper recursion are the same code for all lanes, and the innermost loops run across the
  lanes (SIMD). A lane group's keeper array (462 keepers x LANES) stays in L1.
* Only distinct states are solved (`states.StateSpace.representatives`); the solver copies their
  values to the states they stand for.
* One call per layer; the lane groups of a layer are spread over all cores.

The arrays it reads and the lane groups are built in `layout`; here is the turn itself, its
helpers written lane by lane (the saved-roll kernel and the turn outcomes reuse them).

With `second` it also carries the second moment of the points to come along the optimal policy
under the documented tie rule (`turn.TIE`), which gives the exact standard deviation.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..basics import TIE   # the one tie tolerance: choices this close to the best are equally good
from .layout import LANES, Settings, Tables, _idx, _upper_step, allowed_boxes, vectorizing

__all__ = ["solve_layer"]


def solve_layer(s: Settings, t: Tables, groups: np.ndarray, values: np.ndarray,
                second: np.ndarray | None = None) -> None:
    """Write the start-of-turn value (and second moment) of every state in `groups` into
    `values` (and `second`), reading the later layers' entries of the same arrays."""
    want = second is not None
    with vectorizing():
        _solve_groups(groups, values, second if want else values, want, s, t)


@njit(parallel=True, cache=True)
def _solve_groups(groups, values, second, want, s, t):
    n_groups = len(groups)
    n_chunks = min(n_groups, 256)
    n_keepers = t.add_die.shape[0]
    n_rolls, n_boxes = t.score.shape
    for c in prange(n_chunks):
        w = np.empty((n_keepers, LANES))       # keeper values; its tail is the rolls' values
        w2 = np.zeros((n_keepers if want else 1, LANES))   # and their second moments
        own = np.empty((n_keepers if want else 1, LANES))  # keeper values before sub-keeper maxima
        e2 = np.zeros((n_rolls, LANES))
        rows = np.empty((n_boxes, s.n_dice + 1, LANES))    # see _box_rows
        rows2 = np.empty((n_boxes, s.n_dice + 1, LANES))
        boxes = np.empty(n_boxes, dtype=np.int64)
        no_record = np.empty((1, 1, 1), dtype=np.int64)
        for g in range(c * n_groups // n_chunks, (c + 1) * n_groups // n_chunks):
            lanes = groups[g]
            e = w[s.roll_offset:]
            mask = lanes[0] // s.n_flags // s.n_upper
            allowed = allowed_boxes(mask, s)
            n_open = _box_rows(rows, rows2, no_record, no_record, boxes, lanes, values, second,
                               s, t)
            _last_roll(e, boxes[:n_open], allowed, rows, t)
            if want:
                _last_roll_second(e, e2, boxes[:n_open], rows, rows2, t.points, t.row_of)
            if s.tracks_flag == 1 and (mask >> s.yahtzee_index) & 1:
                for v in range(LANES):
                    _joker_rolls(e, e2, v, lanes[v], want, values, second, s, t)
            for _ in range(s.rolls_per_turn - 1):
                _reroll(w, w2, own, e2, want, s, t)
            _first_roll(e, t.first_roll, lanes, values)
            if want:
                _first_roll(e2, t.first_roll, lanes, second)


@njit(cache=True)
def _box_rows(rows, rows2, nxt, upper_bonus, boxes, lanes, values, second, s, t):
    """For each box this lane group may fill, the value (and second moment) of filling it, by
    lane: rows[b, c] for an upper box whose face shows c times (its points included), rows[b, 0]
    the next state's value for a lower box (rows[b, 1]: a zero in the Yahtzee box). When `nxt`
    is a full-size array (not the (1, 1, 1) placeholder), also the next state and the upper bonus
    of each row (for the turn outcomes). Returns how many boxes were written to `boxes` (in
    card order)."""
    face_of_box = t.face_of_box
    mask = lanes[0] // s.n_flags // s.n_upper
    allowed = allowed_boxes(mask, s)
    record = nxt.shape[2] == LANES
    n_open = 0
    for b in range(len(face_of_box)):
        if not (allowed >> b) & 1:
            continue
        boxes[n_open] = b
        n_open += 1
        nm = mask | (1 << b)
        f = face_of_box[b]
        is_yahtzee = b == s.yahtzee_index and s.tracks_flag == 1
        for v in range(LANES):
            y = lanes[v] % s.n_flags
            u = (lanes[v] // s.n_flags) % s.n_upper
            if f > 0:
                for c in range(s.n_dice + 1):
                    gain, nu = _upper_step(u, f * c, s)
                    j = _idx(nm, nu, y, s)
                    rows[b, c, v] = gain + values[j]
                    rows2[b, c, v] = gain * gain + 2.0 * gain * values[j] + second[j]
                    if record:
                        nxt[b, c, v], upper_bonus[b, c, v] = j, gain - f * c
            else:
                j = _idx(nm, u, 1 if is_yahtzee else y, s)
                j0 = _idx(nm, u, 0, s)
                rows[b, 0, v], rows2[b, 0, v] = values[j], second[j]
                rows[b, 1, v], rows2[b, 1, v] = values[j0], second[j0]
                if record:
                    nxt[b, 0, v], nxt[b, 1, v] = j, j0
                    upper_bonus[b, 0, v], upper_bonus[b, 1, v] = 0, 0
    return n_open


@njit(cache=True)
def _last_roll(e, boxes, allowed, rows, t):
    """e[r] = value of the best box for the last roll r: max over boxes of points + rows[...].

    A roll that scores nothing in a box reads the box's zero row, the same for every roll: the
    best of those is taken once, and each roll then visits only the boxes it scores in (a roll
    scoring p > 0 in a box also meets its zero row, which is worth less, so the max is exact).
    Lanes are held in registers (written out for LANES = 8: one AVX-512 vector)."""
    points, row_of, zero_row, scoring, n_scoring = t.points, t.row_of, t.zero_row, t.scoring, t.n_scoring
    z0 = z1 = z2 = z3 = z4 = z5 = z6 = z7 = -np.inf
    for b in boxes:
        q = zero_row[b]
        z0 = max(z0, rows[b, q, 0])
        z1 = max(z1, rows[b, q, 1])
        z2 = max(z2, rows[b, q, 2])
        z3 = max(z3, rows[b, q, 3])
        z4 = max(z4, rows[b, q, 4])
        z5 = max(z5, rows[b, q, 5])
        z6 = max(z6, rows[b, q, 6])
        z7 = max(z7, rows[b, q, 7])
    for r in range(e.shape[0]):
        a0, a1, a2, a3, a4, a5, a6, a7 = z0, z1, z2, z3, z4, z5, z6, z7
        for i in range(n_scoring[r]):
            b = scoring[r, i]
            if not (allowed >> b) & 1:
                continue
            p, q = points[r, b], row_of[r, b]
            a0 = max(a0, p + rows[b, q, 0])
            a1 = max(a1, p + rows[b, q, 1])
            a2 = max(a2, p + rows[b, q, 2])
            a3 = max(a3, p + rows[b, q, 3])
            a4 = max(a4, p + rows[b, q, 4])
            a5 = max(a5, p + rows[b, q, 5])
            a6 = max(a6, p + rows[b, q, 6])
            a7 = max(a7, p + rows[b, q, 7])
        e[r, 0], e[r, 1], e[r, 2], e[r, 3], e[r, 4], e[r, 5], e[r, 6], e[r, 7] = a0, a1, a2, a3, a4, a5, a6, a7


@njit(cache=True)
def _last_roll_second(e, e2, boxes, rows, rows2, points, row_of):
    """e2[r] = second moment of the first box in card order within TIE of the best (boxes
    walked from last to first, the last good one kept; lanes in registers)."""
    for r in range(e.shape[0]):
        t0, t1, t2, t3 = e[r, 0] - TIE, e[r, 1] - TIE, e[r, 2] - TIE, e[r, 3] - TIE
        t4, t5, t6, t7 = e[r, 4] - TIE, e[r, 5] - TIE, e[r, 6] - TIE, e[r, 7] - TIE
        s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
        for i in range(len(boxes) - 1, -1, -1):
            b = boxes[i]
            p, q = points[r, b], row_of[r, b]
            m = 1.0 * (p + rows[b, q, 0] >= t0)
            s0 = (p * p + 2.0 * p * rows[b, q, 0] + rows2[b, q, 0]) * m + s0 * (1.0 - m)
            m = 1.0 * (p + rows[b, q, 1] >= t1)
            s1 = (p * p + 2.0 * p * rows[b, q, 1] + rows2[b, q, 1]) * m + s1 * (1.0 - m)
            m = 1.0 * (p + rows[b, q, 2] >= t2)
            s2 = (p * p + 2.0 * p * rows[b, q, 2] + rows2[b, q, 2]) * m + s2 * (1.0 - m)
            m = 1.0 * (p + rows[b, q, 3] >= t3)
            s3 = (p * p + 2.0 * p * rows[b, q, 3] + rows2[b, q, 3]) * m + s3 * (1.0 - m)
            m = 1.0 * (p + rows[b, q, 4] >= t4)
            s4 = (p * p + 2.0 * p * rows[b, q, 4] + rows2[b, q, 4]) * m + s4 * (1.0 - m)
            m = 1.0 * (p + rows[b, q, 5] >= t5)
            s5 = (p * p + 2.0 * p * rows[b, q, 5] + rows2[b, q, 5]) * m + s5 * (1.0 - m)
            m = 1.0 * (p + rows[b, q, 6] >= t6)
            s6 = (p * p + 2.0 * p * rows[b, q, 6] + rows2[b, q, 6]) * m + s6 * (1.0 - m)
            m = 1.0 * (p + rows[b, q, 7] >= t7)
            s7 = (p * p + 2.0 * p * rows[b, q, 7] + rows2[b, q, 7]) * m + s7 * (1.0 - m)
        e2[r, 0], e2[r, 1], e2[r, 2], e2[r, 3], e2[r, 4], e2[r, 5], e2[r, 6], e2[r, 7] = s0, s1, s2, s3, s4, s5, s6, s7


@njit(cache=True)
def _first_roll(e, first_roll, lanes, out):
    """out[state of lane v] = sum over rolls of P(roll) * e[roll, v]."""
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    for r in range(e.shape[0]):
        p = first_roll[r]
        a0 += p * e[r, 0]
        a1 += p * e[r, 1]
        a2 += p * e[r, 2]
        a3 += p * e[r, 3]
        a4 += p * e[r, 4]
        a5 += p * e[r, 5]
        a6 += p * e[r, 6]
        a7 += p * e[r, 7]
    sums = (a0, a1, a2, a3, a4, a5, a6, a7)
    for v in range(LANES):
        out[lanes[v]] = sums[v]


@njit(cache=True)
def _reroll(w, w2, own, e2, want, s, t):
    """One reroll stage: keeper values by the keepers recursion (w[k] = mean of w[k + one die]),
    then each roll's best sub-keeper (m[k] = max(w[k], m[k - one die]), sizes ascending)."""
    add_die, sub, n_sub, pref_keeper, pref_start = t.add_die, t.sub, t.n_sub, t.pref_keeper, t.pref_start
    off = s.roll_offset
    inv = 1.0 / s.faces
    n_keepers = w.shape[0]
    if want:
        w2[off:] = e2
    for k in range(off - 1, -1, -1):
        _average(w, k, add_die, s.faces, inv)
        if want:
            _average(w2, k, add_die, s.faces, inv)
    if want:
        own[:] = w
    for k in range(1, n_keepers):
        _best_child(w, k, sub, n_sub[k])
    if want:   # the preferred keeper within TIE of the best: most dice, then first in order
        for r in range(n_keepers - off):
            _preferred_keeper(w, w2, own, e2, r, off, pref_keeper, pref_start)


@njit(cache=True)
def _preferred_keeper(w, w2, own, e2, r, off, pref_keeper, pref_start):
    """e2[r] = second moment of roll r's most preferred sub-keeper within TIE of its best value:
    its sub-keepers are walked from least to most preferred, the last good one kept (no
    branches, lanes in registers; the select is written as x * m + s * (1 - m) with m = 0 or 1,
    exact for finite values, because the vectorizer turns that into vector code and a
    conditional expression into scalar code, 2x slower)."""
    t0, t1, t2, t3 = w[off + r, 0] - TIE, w[off + r, 1] - TIE, w[off + r, 2] - TIE, w[off + r, 3] - TIE
    t4, t5, t6, t7 = w[off + r, 4] - TIE, w[off + r, 5] - TIE, w[off + r, 6] - TIE, w[off + r, 7] - TIE
    s0, s1, s2, s3, s4, s5, s6, s7 = e2[r, 0], e2[r, 1], e2[r, 2], e2[r, 3], e2[r, 4], e2[r, 5], e2[r, 6], e2[r, 7]
    for i in range(pref_start[r + 1] - 1, pref_start[r] - 1, -1):
        k = pref_keeper[i]
        m = 1.0 * (own[k, 0] >= t0)
        s0 = w2[k, 0] * m + s0 * (1.0 - m)
        m = 1.0 * (own[k, 1] >= t1)
        s1 = w2[k, 1] * m + s1 * (1.0 - m)
        m = 1.0 * (own[k, 2] >= t2)
        s2 = w2[k, 2] * m + s2 * (1.0 - m)
        m = 1.0 * (own[k, 3] >= t3)
        s3 = w2[k, 3] * m + s3 * (1.0 - m)
        m = 1.0 * (own[k, 4] >= t4)
        s4 = w2[k, 4] * m + s4 * (1.0 - m)
        m = 1.0 * (own[k, 5] >= t5)
        s5 = w2[k, 5] * m + s5 * (1.0 - m)
        m = 1.0 * (own[k, 6] >= t6)
        s6 = w2[k, 6] * m + s6 * (1.0 - m)
        m = 1.0 * (own[k, 7] >= t7)
        s7 = w2[k, 7] * m + s7 * (1.0 - m)
    e2[r, 0], e2[r, 1], e2[r, 2], e2[r, 3], e2[r, 4], e2[r, 5], e2[r, 6], e2[r, 7] = s0, s1, s2, s3, s4, s5, s6, s7


@njit(cache=True)
def _average(w, k, add_die, faces, inv):
    """w[k] = mean over faces f of w[k + f], lanes in registers."""
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    for f in range(faces):
        c = add_die[k, f]
        a0 += w[c, 0]
        a1 += w[c, 1]
        a2 += w[c, 2]
        a3 += w[c, 3]
        a4 += w[c, 4]
        a5 += w[c, 5]
        a6 += w[c, 6]
        a7 += w[c, 7]
    w[k, 0], w[k, 1], w[k, 2], w[k, 3] = a0 * inv, a1 * inv, a2 * inv, a3 * inv
    w[k, 4], w[k, 5], w[k, 6], w[k, 7] = a4 * inv, a5 * inv, a6 * inv, a7 * inv


@njit(cache=True)
def _best_child(w, k, sub, n):
    """w[k] = max(w[k], w[k minus one die]) over its n distinct children, lanes in registers."""
    a0, a1, a2, a3, a4, a5, a6, a7 = w[k, 0], w[k, 1], w[k, 2], w[k, 3], w[k, 4], w[k, 5], w[k, 6], w[k, 7]
    for i in range(n):
        c = sub[k, i]
        a0 = max(a0, w[c, 0])
        a1 = max(a1, w[c, 1])
        a2 = max(a2, w[c, 2])
        a3 = max(a3, w[c, 3])
        a4 = max(a4, w[c, 4])
        a5 = max(a5, w[c, 5])
        a6 = max(a6, w[c, 6])
        a7 = max(a7, w[c, 7])
    w[k, 0], w[k, 1], w[k, 2], w[k, 3], w[k, 4], w[k, 5], w[k, 6], w[k, 7] = a0, a1, a2, a3, a4, a5, a6, a7


@njit(cache=True)
def _joker_rolls(e, e2, v, lane, want, values, second, s, t):
    """n of a kind with the Yahtzee box filled: the Yahtzee bonus and the joker rule, for lane v
    (state `lane`)."""
    score, joker, face_of_box, kind_face = t.score, t.joker, t.face_of_box, t.kind_face
    mask = lane // s.n_flags // s.n_upper
    u, y = (lane // s.n_flags) % s.n_upper, lane % s.n_flags
    allowed = allowed_boxes(mask, s)
    n_rolls, n_boxes = score.shape
    yi = s.yahtzee_index
    bonus = float(s.yahtzee_bonus) if y == 1 else 0.0
    for r in range(n_rolls):
        f = kind_face[r]
        if f == 0:
            continue
        matching = -1
        lower_open = False
        for b in range(n_boxes):
            if face_of_box[b] == f:
                matching = b
            if face_of_box[b] == 0 and b != yi and (allowed >> b) & 1:
                lower_open = True
        matching_open = matching >= 0 and (allowed >> matching) & 1 == 1
        best = -np.inf
        best2 = 0.0
        for pass_ in range(2 if want else 1):
            for bb in range(n_boxes):
                b = bb if pass_ == 0 else n_boxes - 1 - bb  # pass 1: first box within TIE wins
                if b == yi or not (allowed >> b) & 1:
                    continue
                upper_box = face_of_box[b] > 0
                if s.joker_mode == 1:  # forced: matching upper, else a lower box, else an upper zero
                    if matching_open and b != matching:
                        continue
                    if not matching_open and lower_open and upper_box:
                        continue
                nm = mask | (1 << b)
                if upper_box:
                    g, nu = _upper_step(u, int(score[r, b]), s)
                    j = _idx(nm, nu, y, s)
                else:
                    g = score[r, b]
                    if s.joker_mode == 1 or (s.joker_mode == 2 and not matching_open):
                        g = joker[r, b]
                    j = _idx(nm, u, y, s)
                g += bonus
                x = g + values[j]
                if pass_ == 0:
                    best = max(best, x)
                elif x >= best - TIE:
                    best2 = g * g + 2.0 * g * values[j] + second[j]
        e[r, v] = best
        e2[r, v] = best2
