"""The solver's compiled inner loop: one turn of many states, in numba.

It computes exactly what `turn.turn_values` computes with numpy (the tests check they agree), one
state at a time so that a state's 462 keeper values stay in the CPU's fastest cache, with the
states of a layer spread over all cores. It can also carry the second moment of the score along
the optimal policy, which gives the exact standard deviation without simulation.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .policy import TIE  # for second moments: the same tie rule as the exact distribution
from .rules import Rules
from .states import StateSpace

LANES = 8    # states advanced together by the kernel's innermost loops
JOKER_MODES = {"none": 0, "forced": 1, "free": 2}


@dataclass(frozen=True)
class Tables:
    """Everything the kernel reads about the rules and the dice, as plain arrays."""

    score: np.ndarray        # (R, B) float64 normal scores
    joker: np.ndarray        # (R, B) float64 joker scores
    face_of_box: np.ndarray  # (B,) upper face, 0 for lower boxes
    counts: np.ndarray       # (R, faces) dice per face
    kind_face: np.ndarray    # (R,) face of an n-of-a-kind roll, 0 otherwise
    add_die: np.ndarray      # (K, faces)
    remove_die: np.ndarray   # (K, n_dice)
    level_start: np.ndarray  # (n_dice + 2,) first keeper index of each size
    first_roll: np.ndarray   # (R,) P(roll) for a roll of all the dice
    pref_keeper: np.ndarray  # sub-keepers of every roll, most dice first, then keeper order
    pref_start: np.ndarray   # (R + 1,) where each roll's run starts in pref_keeper
    params: np.ndarray       # int64 scalars, see `tables`


def tables(rules: Rules) -> Tables:
    dice = rules.dice
    kind_face = np.zeros(dice.n_rolls, dtype=np.int64)
    for r in rules.n_of_a_kind_rolls:
        kind_face[r] = int(np.argmax(dice.rolls[r])) + 1
    space = StateSpace(rules)
    params = np.array([
        space.n_upper, space.n_flags, rules.upper_cap, rules.upper_bonus_threshold,
        rules.upper_bonus if rules.tracks_upper else 0, rules.yahtzee_index,
        rules.yahtzee_bonus, JOKER_MODES[rules.joker], int(rules.tracks_yahtzee_bonus),
        rules.rolls_per_turn, dice.roll_offset, dice.faces, rules.n_dice,
    ], dtype=np.int64)
    starts = np.array([s.start for s in dice.level_slices] + [dice.n_keepers], dtype=np.int64)
    pref_keeper, pref_start = dice.preferred_pairs
    return Tables(rules.score_table.astype(np.float64), rules.joker_table.astype(np.float64),
                  rules.upper_faces.astype(np.int64), dice.rolls.astype(np.int64), kind_face,
                  dice.add_die, dice.remove_die, starts, dice.transition[0].copy(),
                  pref_keeper, pref_start, params)


def turn_block(rules: Rules, t: Tables, values: np.ndarray, states: np.ndarray,
               second: np.ndarray | None = None):
    """Start-of-turn value (and second moment, if `second` holds later states' ones) of each state."""
    want = second is not None
    mean_out = np.empty(len(states))
    second_out = np.empty(len(states) if want else 0)
    _turn_block(np.asarray(states, dtype=np.int64), values, second if want else values, want,
                mean_out, second_out, t.score, t.joker, t.face_of_box, t.counts, t.kind_face,
                t.add_die, t.remove_die, t.level_start, t.first_roll, t.pref_keeper,
                t.pref_start, t.params)
    return (mean_out, second_out) if want else mean_out


@njit(cache=True)
def _upper_step(u, points, p):
    """(points incl. upper bonus, new capped upper total)."""
    n_upper, cap, threshold, bonus = p[0], p[2], p[3], p[4]
    if n_upper == 1:
        return float(points), 0
    new = min(u + points, cap)
    gain = points + (bonus if (u < threshold and u + points >= threshold) else 0)
    return float(gain), new


@njit(cache=True)
def _idx(mask, u, y, p):
    return (mask * p[0] + u) * p[1] + y


@njit(parallel=True, cache=True)
def _turn_block(states, values, second, want, mean_out, second_out, score, joker, face_of_box,
                counts, kind_face, add_die, remove_die, level_start, first_roll, pref_keeper,
                pref_start, p):
    n_states = len(states)
    n_chunks = min(n_states, 64)
    for c in prange(n_chunks):
        lo = c * n_states // n_chunks
        hi = (c + 1) * n_states // n_chunks
        _turn_chunk(states[lo:hi], values, second, want, mean_out[lo:hi],
                    second_out[lo:hi] if want else second_out, score, joker, face_of_box,
                    counts, kind_face, add_die, remove_die, level_start, first_roll, pref_keeper,
                    pref_start, p)


@njit(cache=True)
def _turn_chunk(states, values, second, want, mean_out, second_out, score, joker, face_of_box,
                counts, kind_face, add_die, remove_die, level_start, first_roll, pref_keeper,
                    pref_start, p):
    """States in groups of LANES: the innermost loops run across the group, which the compiler
    turns into SIMD instructions; consecutive states mostly share their used boxes."""
    n_rolls, n_boxes = score.shape
    n_keepers = add_die.shape[0]
    yi, tracks_flag = p[5], p[8]
    rolls_per_turn, roll_offset, faces, n_dice = p[9], p[10], p[11], p[12]
    score_t = np.ascontiguousarray(score.T)      # (B, R)
    counts_t = np.ascontiguousarray(counts.T)    # (faces, R)
    e = np.empty((n_rolls, LANES))               # value of each roll at the current stage
    e2 = np.zeros((n_rolls, LANES))              # its second moment under the chosen policy
    per_count = np.empty((n_dice + 1, LANES))    # value of an upper box by count of its face
    per_count2 = np.empty((n_dice + 1, LANES))
    nxt = np.empty(LANES)                        # next state's value (and second moment) ...
    nxt2 = np.empty(LANES)
    nxt0 = np.empty(LANES)                       # ... and with the Yahtzee box scratched
    nxt02 = np.empty(LANES)
    w = np.empty((n_keepers, LANES))
    w2 = np.zeros((n_keepers, LANES))
    own = np.empty((n_keepers, LANES))           # keeper values before taking sub-keeper maxima
    mask = np.empty(LANES, dtype=np.int64)
    u = np.empty(LANES, dtype=np.int64)
    y = np.empty(LANES, dtype=np.int64)
    n = len(states)
    for g0 in range(0, n, LANES):
        lanes = min(LANES, n - g0)
        any_open = 0
        for v in range(LANES):
            st = states[g0 + min(v, lanes - 1)]   # pad the last group with its last state
            y[v] = st % p[1]
            rest = st // p[1]
            u[v] = rest % p[0]
            mask[v] = rest // p[0]
            any_open |= ~mask[v]
        e[:] = -np.inf
        # ---- last roll: best box (pass 0); with moments, pass 1 walks the boxes backwards so
        # that the second moment ends up from the first box within TIE of the best
        for pass_ in range(2 if want else 1):
            for bb in range(n_boxes):
                b = bb if pass_ == 0 else n_boxes - 1 - bb
                if not (any_open >> b) & 1:
                    continue
                f = face_of_box[b]
                if f > 0:
                    for c in range(n_dice + 1):
                        for v in range(LANES):
                            gain, nu = _upper_step(u[v], f * c, p)
                            j = _idx(mask[v] | (1 << b), nu, y[v], p)
                            closed = (mask[v] >> b) & 1
                            per_count[c, v] = -np.inf if closed else gain + values[j]
                            per_count2[c, v] = gain * gain + 2.0 * gain * values[j] + second[j]
                    cf = counts_t[f - 1]
                    for r in range(n_rolls):
                        row, row2 = per_count[cf[r]], per_count2[cf[r]]
                        if pass_ == 0:
                            for v in range(LANES):
                                e[r, v] = max(e[r, v], row[v])
                        else:
                            for v in range(LANES):
                                e2[r, v] = row2[v] if row[v] >= e[r, v] - TIE else e2[r, v]
                    continue
                is_yahtzee = b == yi and tracks_flag == 1
                for v in range(LANES):
                    closed = (mask[v] >> b) & 1
                    nm = mask[v] | (1 << b)
                    j = _idx(nm, u[v], 1 if is_yahtzee else y[v], p)
                    j0 = _idx(nm, u[v], 0, p)
                    nxt[v] = -np.inf if closed else values[j]
                    nxt2[v] = second[j]
                    nxt0[v] = -np.inf if closed else values[j0]
                    nxt02[v] = second[j0]
                sc = score_t[b]
                for r in range(n_rolls):
                    pts = sc[r]
                    scored = pts > 0 or not is_yahtzee
                    if pass_ == 0:
                        for v in range(LANES):
                            e[r, v] = max(e[r, v], pts + nxt[v] if scored else nxt0[v])
                    else:
                        for v in range(LANES):
                            x = pts + nxt[v] if scored else nxt0[v]
                            x2 = pts * pts + 2.0 * pts * nxt[v] + nxt2[v] if scored else nxt02[v]
                            e2[r, v] = x2 if x >= e[r, v] - TIE else e2[r, v]
        if tracks_flag == 1:
            for v in range(LANES):
                if (mask[v] >> yi) & 1:
                    _joker_rolls(e, e2, v, mask[v], u[v], y[v], want, values, second, score,
                                 joker, face_of_box, kind_face, p)
        # ---- rerolls: keepers recursion, then best keeper inside each roll
        for stage in range(rolls_per_turn - 1):
            w[roll_offset:] = e
            if want:
                w2[roll_offset:] = e2
            for k in range(roll_offset - 1, -1, -1):
                _average_children(w, k, add_die, faces)
                if want:
                    _average_children(w2, k, add_die, faces)
            if want:
                own[:] = w
            # best sub-keeper: m[k] = max(w[k], m[k minus one die]); sizes ascending
            for size in range(1, n_dice + 1):
                for k in range(level_start[size], level_start[size + 1]):
                    _best_child(w, k, size, remove_die)
            e[:] = w[roll_offset:]
            if want:  # the preferred keeper within TIE of the best: most dice, then first.
                # Walk each roll's sub-keepers from least to most preferred and overwrite:
                # no branches, all lanes at once; the last good one written is the preferred.
                for r in range(n_rolls):
                    _preferred_keeper(e, e2, own, w2, r, pref_keeper, pref_start)
        # ---- the first roll: only the empty keeper's value is needed
        for v in range(lanes):
            acc = 0.0
            acc2 = 0.0
            for r in range(n_rolls):
                acc += first_roll[r] * e[r, v]
                acc2 += first_roll[r] * e2[r, v]
            mean_out[g0 + v] = acc
            if want:
                second_out[g0 + v] = acc2


@njit(cache=True)
def _average_children(w, k, add_die, faces):
    """w[k] = mean over faces f of w[k + f], for all lanes (local sums, so it vectorizes)."""
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
    for f in range(faces):
        row = w[add_die[k, f]]
        a0 += row[0]
        a1 += row[1]
        a2 += row[2]
        a3 += row[3]
        a4 += row[4]
        a5 += row[5]
        a6 += row[6]
        a7 += row[7]
    out = w[k]
    out[0] = a0 / faces
    out[1] = a1 / faces
    out[2] = a2 / faces
    out[3] = a3 / faces
    out[4] = a4 / faces
    out[5] = a5 / faces
    out[6] = a6 / faces
    out[7] = a7 / faces


@njit(cache=True)
def _best_child(w, k, size, remove_die):
    """w[k] = max(w[k], w[k minus one die]) for all lanes, in registers."""
    out = w[k]
    a0, a1, a2, a3, a4, a5, a6, a7 = out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]
    for j in range(size):
        row = w[remove_die[k, j]]
        a0 = max(a0, row[0])
        a1 = max(a1, row[1])
        a2 = max(a2, row[2])
        a3 = max(a3, row[3])
        a4 = max(a4, row[4])
        a5 = max(a5, row[5])
        a6 = max(a6, row[6])
        a7 = max(a7, row[7])
    out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7] = a0, a1, a2, a3, a4, a5, a6, a7


@njit(cache=True)
def _preferred_keeper(e, e2, own, own2, r, pref_keeper, pref_start):
    """e2[r] = second moment of the most preferred sub-keeper of roll r within TIE of e[r]."""
    best, out = e[r], e2[r]
    t0 = best[0] - TIE
    s0 = out[0]
    t1 = best[1] - TIE
    s1 = out[1]
    t2 = best[2] - TIE
    s2 = out[2]
    t3 = best[3] - TIE
    s3 = out[3]
    t4 = best[4] - TIE
    s4 = out[4]
    t5 = best[5] - TIE
    s5 = out[5]
    t6 = best[6] - TIE
    s6 = out[6]
    t7 = best[7] - TIE
    s7 = out[7]
    for i in range(pref_start[r + 1] - 1, pref_start[r] - 1, -1):
        k = pref_keeper[i]
        o, o2 = own[k], own2[k]
        s0 = o2[0] if o[0] >= t0 else s0
        s1 = o2[1] if o[1] >= t1 else s1
        s2 = o2[2] if o[2] >= t2 else s2
        s3 = o2[3] if o[3] >= t3 else s3
        s4 = o2[4] if o[4] >= t4 else s4
        s5 = o2[5] if o[5] >= t5 else s5
        s6 = o2[6] if o[6] >= t6 else s6
        s7 = o2[7] if o[7] >= t7 else s7
    out[0] = s0
    out[1] = s1
    out[2] = s2
    out[3] = s3
    out[4] = s4
    out[5] = s5
    out[6] = s6
    out[7] = s7


@njit(cache=True)
def _joker_rolls(e, e2, v, mask, u, y, want, values, second, score, joker, face_of_box,
                 kind_face, p):
    """n of a kind with the Yahtzee box filled: the Yahtzee bonus and the joker rule."""
    n_rolls, n_boxes = score.shape
    yi, y_bonus, joker_mode = p[5], p[6], p[7]
    bonus = float(y_bonus) if y == 1 else 0.0
    for r in range(n_rolls):
        f = kind_face[r]
        if f == 0:
            continue
        matching = -1
        lower_open = False
        for b in range(n_boxes):
            if face_of_box[b] == f:
                matching = b
            if face_of_box[b] == 0 and b != yi and not (mask >> b) & 1:
                lower_open = True
        matching_open = matching >= 0 and not (mask >> matching) & 1
        best = -np.inf
        best2 = 0.0
        for pass_ in range(2 if want else 1):
            for bb in range(n_boxes):
                b = bb if pass_ == 0 else n_boxes - 1 - bb  # pass 1: first box within TIE wins
                if b == yi or (mask >> b) & 1:
                    continue
                upper_box = face_of_box[b] > 0
                if joker_mode == 1:  # forced: matching upper, else a lower box, else an upper zero
                    if matching_open and b != matching:
                        continue
                    if not matching_open and lower_open and upper_box:
                        continue
                nm = mask | (1 << b)
                if upper_box:
                    g, nu = _upper_step(u, int(score[r, b]), p)
                    j = _idx(nm, nu, y, p)
                else:
                    g = score[r, b]
                    if joker_mode == 1 or (joker_mode == 2 and not matching_open):
                        g = joker[r, b]
                    j = _idx(nm, u, y, p)
                g += bonus
                x = g + values[j]
                if pass_ == 0:
                    best = max(best, x)
                elif x >= best - TIE:
                    best2 = g * g + 2.0 * g * values[j] + second[j]
        e[r, v] = best
        e2[r, v] = best2
