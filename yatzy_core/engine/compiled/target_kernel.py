"""The compiled inner loop of the target solver: one turn of one state for a whole band of n.

`targets.py` asks for V(s, n) = the best probability of gaining at least n more points. Every n
is its own scalar problem (the keeper recursion is linear, the maxima element-wise), so the n
axis is the SIMD axis here, the way a lane group of 8 states is in `kernel.py`: a turn is
worked for CHUNK consecutive n at a time (its keeper array, 462 x CHUNK, stays in L1/L2).

Scoring p points reads the next state's vector shifted by p. Each box's next state (for an upper
box: each count of its face, the upper points and bonus shifted in already) is copied once per
state into a row of a padded buffer that also holds n <= 0 (certain: 1) and n above the next
state's band (impossible: 0), so a shifted read is one contiguous load.

With `risk` the same loops carry expected utilities instead (a band a multiple of CHUNK): lane i holds
E[sign(theta_i) exp(theta_i * points to come)], and scoring p multiplies by exp(theta_i * p)
(the table `weight[p, i]`) where the target mode shifts.

Vectorising (run under `layout.vectorizing`, LLVM's SLP vectorizer on): the hot loops hold the
CHUNK lanes in scalar locals read with constant column indices and store each row once. A loop
`for i in range(CHUNK): w[k, i] += w[c, i]` stays scalar (LLVM cannot prove rows k and c apart),
and a masked store reloaded next box stalls; this way each row is two packed vector operations.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .layout import _idx, _upper_step, allowed_boxes   # the state index, the upper bonus, the open boxes: one home

__all__ = ["CHUNK", "solve_states"]

CHUNK = 16   # n values worked together (two AVX-512 vectors of float64); the lane helpers
             # below spell out 16 lanes, so change them with it


@njit(cache=True)
def _fill(buf, row, pad, j, shift, solved, risk):
    """buf[row, pad + m] = V(j, m - shift) for m = -pad .. width - pad - 1 (targets), or the
    utility of state j times weight[shift] in every lane (risk). `solved` is the
    (data, offset, band, weight) of `solve_states`."""
    data, offset, band, weight = solved
    width = buf.shape[1]
    if risk:
        for i in range(width):
            buf[row, i] = weight[shift, i] * data[offset[j] + i]
        return
    ones = min(width, pad + shift + 1)            # columns with k = m - shift <= 0
    known = min(width, ones + band[j])            # then k = 1 .. band[j]
    buf[row, :ones] = 1.0
    buf[row, ones:known] = data[offset[j]:offset[j] + known - ones]
    buf[row, known:] = 0.0


@njit(cache=True)
def _rows(buf, row_id, state, pad, s, face_of_box, solved, risk):
    """One padded row per (allowed box, count of its face) for an upper box and per (box, flag)
    for a lower one; row_id[b, c] says where. Returns the allowed boxes as a bit mask."""
    y = state % s.n_flags
    u = (state // s.n_flags) % s.n_upper
    mask = state // s.n_flags // s.n_upper
    allowed = allowed_boxes(mask, s)
    nxt = 0
    for b in range(len(face_of_box)):
        if not (allowed >> b) & 1:
            continue
        nm, f = mask | (1 << b), face_of_box[b]
        if f > 0:
            for c in range(s.n_dice + 1):
                g, nu = _upper_step(u, f * c, s)
                _fill(buf, nxt, pad, _idx(nm, nu, y, s), g, solved, risk)
                row_id[b, c] = nxt
                nxt += 1
        else:
            is_yahtzee = b == s.yahtzee_index and s.tracks_flag == 1
            _fill(buf, nxt, pad, _idx(nm, u, 1 if is_yahtzee else y, s), 0, solved, risk)
            _fill(buf, nxt + 1, pad, _idx(nm, u, 0, s), 0, solved, risk)
            row_id[b, 0], row_id[b, 1] = nxt, nxt + 1
            nxt += 2
    return allowed


@njit(cache=True)
def _max_into(dst, src):
    """dst = max(dst, src) over the 16 lanes, all read before any is written so that SLP packs
    it (a loop over lanes does not vectorise: dst and src may overlap)."""
    a0, a1, a2, a3 = dst[0], dst[1], dst[2], dst[3]
    a4, a5, a6, a7 = dst[4], dst[5], dst[6], dst[7]
    a8, a9, a10, a11 = dst[8], dst[9], dst[10], dst[11]
    a12, a13, a14, a15 = dst[12], dst[13], dst[14], dst[15]
    b0, b1, b2, b3 = src[0], src[1], src[2], src[3]
    b4, b5, b6, b7 = src[4], src[5], src[6], src[7]
    b8, b9, b10, b11 = src[8], src[9], src[10], src[11]
    b12, b13, b14, b15 = src[12], src[13], src[14], src[15]
    dst[0], dst[1] = max(a0, b0), max(a1, b1)
    dst[2], dst[3] = max(a2, b2), max(a3, b3)
    dst[4], dst[5] = max(a4, b4), max(a5, b5)
    dst[6], dst[7] = max(a6, b6), max(a7, b7)
    dst[8], dst[9] = max(a8, b8), max(a9, b9)
    dst[10], dst[11] = max(a10, b10), max(a11, b11)
    dst[12], dst[13] = max(a12, b12), max(a13, b13)
    dst[14], dst[15] = max(a14, b14), max(a15, b15)


@njit(cache=True)
def _best_box(e, r, z, buf, q_at, wt, n):
    """e[r] = max(z, wt[k] * buf[q, at:at + 16]) over the n (q, at) in q_at, lanes in scalars
    kept in registers across the boxes (a masked store then reload would stall each box)."""
    a0, a1, a2, a3 = z[0], z[1], z[2], z[3]
    a4, a5, a6, a7 = z[4], z[5], z[6], z[7]
    a8, a9, a10, a11 = z[8], z[9], z[10], z[11]
    a12, a13, a14, a15 = z[12], z[13], z[14], z[15]
    for k in range(n):
        row, w = buf[q_at[k, 0], q_at[k, 1]:q_at[k, 1] + CHUNK], wt[k]
        a0, a1 = max(a0, w[0] * row[0]), max(a1, w[1] * row[1])
        a2, a3 = max(a2, w[2] * row[2]), max(a3, w[3] * row[3])
        a4, a5 = max(a4, w[4] * row[4]), max(a5, w[5] * row[5])
        a6, a7 = max(a6, w[6] * row[6]), max(a7, w[7] * row[7])
        a8, a9 = max(a8, w[8] * row[8]), max(a9, w[9] * row[9])
        a10, a11 = max(a10, w[10] * row[10]), max(a11, w[11] * row[11])
        a12, a13 = max(a12, w[12] * row[12]), max(a13, w[13] * row[13])
        a14, a15 = max(a14, w[14] * row[14]), max(a15, w[15] * row[15])
    e[r, 0], e[r, 1], e[r, 2], e[r, 3] = a0, a1, a2, a3
    e[r, 4], e[r, 5], e[r, 6], e[r, 7] = a4, a5, a6, a7
    e[r, 8], e[r, 9], e[r, 10], e[r, 11] = a8, a9, a10, a11
    e[r, 12], e[r, 13], e[r, 14], e[r, 15] = a12, a13, a14, a15


@njit(cache=True)
def _last_roll(e, n0, buf, pad, row_id, allowed, t, risk, weight):
    """e[r, i] = best over boxes of scoring roll r, for n = n0 + i (the lanes). Target mode
    weighs every box by 1.0 (exact), risk mode by exp(theta_i * points)."""
    points, row_of, zero_row, scoring, n_scoring = t.points, t.row_of, t.zero_row, t.scoring, t.n_scoring
    z = np.full(CHUNK, -np.inf, dtype=e.dtype)
    for b in range(row_id.shape[0]):
        if (allowed >> b) & 1:
            q, at = row_id[b, zero_row[b]], (n0 if risk else pad + n0)
            _max_into(z, buf[q, at:at + CHUNK])
    q_at = np.empty((scoring.shape[1], 2), dtype=np.int64)
    wt = np.ones((scoring.shape[1], CHUNK), dtype=weight.dtype)
    for r in range(e.shape[0]):
        n = 0
        for k in range(n_scoring[r]):
            b = scoring[r, k]
            if (allowed >> b) & 1:
                p, q_at[n, 0] = int(points[r, b]), row_id[b, row_of[r, b]]
                q_at[n, 1] = n0 if risk else pad + n0 - p
                if risk:
                    wt[n] = weight[p, n0:n0 + CHUNK]
                n += 1
        _best_box(e, r, z, buf, q_at, wt, n)


@njit(cache=True)
def _joker(e, n0, buf, pad, row_id, state, s, t, risk, weight):
    """n of a kind once the Yahtzee box is filled: the Yahtzee bonus and the joker rule
    (the same cases as `turn.score_box`), written over the normal values of those rolls."""
    score, joker, face_of_box, kind_face = t.score, t.joker, t.face_of_box, t.kind_face
    allowed = allowed_boxes(state // s.n_flags // s.n_upper, s)
    y = state % s.n_flags
    bonus = s.yahtzee_bonus if y == 1 else 0
    n_boxes = len(face_of_box)
    for r in range(e.shape[0]):
        f = kind_face[r]
        if f == 0:
            continue
        matching, lower_open = -1, False
        for b in range(n_boxes):
            if face_of_box[b] == f:
                matching = b
            if face_of_box[b] == 0 and b != s.yahtzee_index and (allowed >> b) & 1:
                lower_open = True
        matching_open = matching >= 0 and (allowed >> matching) & 1 == 1
        e[r] = -np.inf
        for b in range(n_boxes):
            if b == s.yahtzee_index or not (allowed >> b) & 1:
                continue
            upper_box = face_of_box[b] > 0
            if s.joker_mode == 1:   # forced: matching upper, else a lower box, else an upper zero
                if (matching_open and b != matching) or (not matching_open and lower_open and upper_box):
                    continue
            if upper_box:
                q, p = row_id[b, s.n_dice if face_of_box[b] == f else 0], bonus
            else:
                use_joker = s.joker_mode == 1 or (s.joker_mode == 2 and not matching_open)
                q, p = row_id[b, 0], int(joker[r, b] if use_joker else score[r, b]) + bonus
            for i in range(CHUNK):
                v = weight[p, n0 + i] * buf[q, n0 + i] if risk else buf[q, pad + n0 - p + i]
                e[r, i] = max(e[r, i], v)


@njit(cache=True)
def _average(w, k, add_die, faces, inv):
    """w[k] = mean over faces of w[k plus one die]. The 16 lanes live in scalars read with constant
    column indices: a loop over lanes does not vectorise (LLVM cannot prove rows k and c apart),
    these pack into two vector registers under `layout.vectorizing` (SLP)."""
    c = add_die[k, 0]
    a0, a1, a2, a3 = w[c, 0], w[c, 1], w[c, 2], w[c, 3]
    a4, a5, a6, a7 = w[c, 4], w[c, 5], w[c, 6], w[c, 7]
    a8, a9, a10, a11 = w[c, 8], w[c, 9], w[c, 10], w[c, 11]
    a12, a13, a14, a15 = w[c, 12], w[c, 13], w[c, 14], w[c, 15]
    for f in range(1, faces):
        c = add_die[k, f]
        a0, a1, a2, a3 = a0 + w[c, 0], a1 + w[c, 1], a2 + w[c, 2], a3 + w[c, 3]
        a4, a5, a6, a7 = a4 + w[c, 4], a5 + w[c, 5], a6 + w[c, 6], a7 + w[c, 7]
        a8, a9, a10, a11 = a8 + w[c, 8], a9 + w[c, 9], a10 + w[c, 10], a11 + w[c, 11]
        a12, a13, a14, a15 = a12 + w[c, 12], a13 + w[c, 13], a14 + w[c, 14], a15 + w[c, 15]
    w[k, 0], w[k, 1], w[k, 2], w[k, 3] = a0 * inv, a1 * inv, a2 * inv, a3 * inv
    w[k, 4], w[k, 5], w[k, 6], w[k, 7] = a4 * inv, a5 * inv, a6 * inv, a7 * inv
    w[k, 8], w[k, 9], w[k, 10], w[k, 11] = a8 * inv, a9 * inv, a10 * inv, a11 * inv
    w[k, 12], w[k, 13], w[k, 14], w[k, 15] = a12 * inv, a13 * inv, a14 * inv, a15 * inv


@njit(cache=True)
def _best_child(w, k, sub, n):
    """w[k] = max(w[k], w[k minus one die]) over its n children, the lanes in scalars as above."""
    a0, a1, a2, a3 = w[k, 0], w[k, 1], w[k, 2], w[k, 3]
    a4, a5, a6, a7 = w[k, 4], w[k, 5], w[k, 6], w[k, 7]
    a8, a9, a10, a11 = w[k, 8], w[k, 9], w[k, 10], w[k, 11]
    a12, a13, a14, a15 = w[k, 12], w[k, 13], w[k, 14], w[k, 15]
    for j in range(n):
        c = sub[k, j]
        a0, a1, a2, a3 = max(a0, w[c, 0]), max(a1, w[c, 1]), max(a2, w[c, 2]), max(a3, w[c, 3])
        a4, a5, a6, a7 = max(a4, w[c, 4]), max(a5, w[c, 5]), max(a6, w[c, 6]), max(a7, w[c, 7])
        a8, a9 = max(a8, w[c, 8]), max(a9, w[c, 9])
        a10, a11 = max(a10, w[c, 10]), max(a11, w[c, 11])
        a12, a13 = max(a12, w[c, 12]), max(a13, w[c, 13])
        a14, a15 = max(a14, w[c, 14]), max(a15, w[c, 15])
    w[k, 0], w[k, 1], w[k, 2], w[k, 3] = a0, a1, a2, a3
    w[k, 4], w[k, 5], w[k, 6], w[k, 7] = a4, a5, a6, a7
    w[k, 8], w[k, 9], w[k, 10], w[k, 11] = a8, a9, a10, a11
    w[k, 12], w[k, 13], w[k, 14], w[k, 15] = a12, a13, a14, a15


@njit(cache=True)
def _reroll(w, off, faces, add_die, sub, n_sub):
    """Keeper values by the keepers recursion, then each roll's best sub-keeper (lane-wise)."""
    inv = 1.0 / faces
    for k in range(off - 1, -1, -1):
        _average(w, k, add_die, faces, inv)
    for k in range(1, w.shape[0]):
        _best_child(w, k, sub, n_sub[k])


@njit(cache=True)
def _first_roll(out, e, first_roll):
    """out[i] = sum over rolls r of P(r) e[r, i], the 16 lanes in scalars (packed by SLP)."""
    a0, a1, a2, a3 = 0.0, 0.0, 0.0, 0.0
    a4, a5, a6, a7 = 0.0, 0.0, 0.0, 0.0
    a8, a9, a10, a11 = 0.0, 0.0, 0.0, 0.0
    a12, a13, a14, a15 = 0.0, 0.0, 0.0, 0.0
    for r in range(e.shape[0]):
        p = first_roll[r]
        a0, a1 = a0 + p * e[r, 0], a1 + p * e[r, 1]
        a2, a3 = a2 + p * e[r, 2], a3 + p * e[r, 3]
        a4, a5 = a4 + p * e[r, 4], a5 + p * e[r, 5]
        a6, a7 = a6 + p * e[r, 6], a7 + p * e[r, 7]
        a8, a9 = a8 + p * e[r, 8], a9 + p * e[r, 9]
        a10, a11 = a10 + p * e[r, 10], a11 + p * e[r, 11]
        a12, a13 = a12 + p * e[r, 12], a13 + p * e[r, 13]
        a14, a15 = a14 + p * e[r, 14], a15 + p * e[r, 15]
    out[0], out[1], out[2], out[3] = a0, a1, a2, a3
    out[4], out[5], out[6], out[7] = a4, a5, a6, a7
    out[8], out[9], out[10], out[11] = a8, a9, a10, a11
    out[12], out[13], out[14], out[15] = a12, a13, a14, a15


@njit(parallel=True, cache=True)
def solve_states(states, data, offset, band, s, tables, pad, risk, weight):
    """Write V(state, n) for n = 1 .. band[state] at data[offset[state] + n - 1] for every state
    (all of one layer; their next states are solved). With `risk`, band[state] utilities.
    `s` and `tables` are the rule set's `layout.tables`."""
    n_keepers = tables.add_die.shape[0]
    n_boxes = len(tables.face_of_box)
    off = s.roll_offset
    solved = (data, offset, band, weight)
    for t in prange(len(states)):
        state = states[t]
        hi = band[state]
        if hi == 0:
            continue
        chunks = (hi + CHUNK - 1) // CHUNK
        width = hi if risk else pad + chunks * CHUNK + 1
        buf = np.empty((n_boxes * (s.n_dice + 1), width), dtype=data.dtype)
        row_id = np.zeros((n_boxes, s.n_dice + 1), dtype=np.int64)
        allowed = _rows(buf, row_id, state, pad, s, tables.face_of_box, solved, risk)
        w = np.empty((n_keepers, CHUNK), dtype=data.dtype)
        total = np.empty(CHUNK)
        mask = state // s.n_flags // s.n_upper
        for c in range(chunks):
            n0 = c * CHUNK if risk else 1 + c * CHUNK
            e = w[off:]
            _last_roll(e, n0, buf, pad, row_id, allowed, tables, risk, weight)
            if s.tracks_flag == 1 and (mask >> s.yahtzee_index) & 1:
                _joker(e, n0, buf, pad, row_id, state, s, tables, risk, weight)
            for _ in range(s.rolls_per_turn - 1):
                _reroll(w, off, s.faces, tables.add_die, tables.sub, tables.n_sub)
            _first_roll(total, e, tables.first_roll)
            for i in range(CHUNK):
                n = n0 + i + (1 if risk else 0)
                if n > hi:
                    break
                data[offset[state] + n - 1] = total[i]
