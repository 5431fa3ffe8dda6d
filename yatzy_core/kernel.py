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

from .rules import Rules
from .states import StateSpace

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
    return Tables(rules.score_table.astype(np.float64), rules.joker_table.astype(np.float64),
                  rules.upper_faces.astype(np.int64), dice.rolls.astype(np.int64), kind_face,
                  dice.add_die, dice.remove_die, starts, params)


def turn_block(rules: Rules, t: Tables, values: np.ndarray, states: np.ndarray,
               second: np.ndarray | None = None):
    """Start-of-turn value (and second moment, if `second` holds later states' ones) of each state."""
    want = second is not None
    mean_out = np.empty(len(states))
    second_out = np.empty(len(states) if want else 0)
    _turn_block(np.asarray(states, dtype=np.int64), values, second if want else values, want,
                mean_out, second_out, t.score, t.joker, t.face_of_box, t.counts, t.kind_face,
                t.add_die, t.remove_die, t.level_start, t.params)
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
                counts, kind_face, add_die, remove_die, level_start, p):
    n_states = len(states)
    n_chunks = min(n_states, 64)
    for c in prange(n_chunks):
        lo = c * n_states // n_chunks
        hi = (c + 1) * n_states // n_chunks
        _turn_chunk(states[lo:hi], values, second, want, mean_out[lo:hi],
                    second_out[lo:hi] if want else second_out, score, joker, face_of_box,
                    counts, kind_face, add_die, remove_die, level_start, p)


@njit(cache=True)
def _turn_chunk(states, values, second, want, mean_out, second_out, score, joker, face_of_box,
                counts, kind_face, add_die, remove_die, level_start, p):
    n_rolls, n_boxes = score.shape
    n_keepers = add_die.shape[0]
    yi, y_bonus, joker_mode, tracks_flag = p[5], p[6], p[7], p[8]
    rolls_per_turn, roll_offset, faces, n_dice = p[9], p[10], p[11], p[12]
    score_t = np.ascontiguousarray(score.T)      # (B, R): rolls contiguous in the hot loop
    counts_t = np.ascontiguousarray(counts.T)    # (faces, R)
    e = np.empty(n_rolls)                        # value of each roll at the current stage
    e2 = np.zeros(n_rolls)                       # its second moment under the chosen policy
    chosen = np.zeros(n_rolls, dtype=np.int64)   # box chosen for each roll (for e2)
    per_count = np.empty(n_dice + 1)
    w = np.empty(n_keepers)
    w2 = np.zeros(n_keepers)
    for s in range(len(states)):
        st = states[s]
        y = st % p[1]
        rest = st // p[1]
        u = rest % p[0]
        mask = rest // p[0]
        e[:] = -np.inf
        # ---- last roll: best box; next-state values looked up once per box, not per roll
        for b in range(n_boxes):
            if (mask >> b) & 1:
                continue
            nm = mask | (1 << b)
            f = face_of_box[b]
            if f > 0:
                for c in range(n_dice + 1):
                    g, nu = _upper_step(u, f * c, p)
                    per_count[c] = g + values[_idx(nm, nu, y, p)]
                cf = counts_t[f - 1]
                for r in range(n_rolls):
                    v = per_count[cf[r]]
                    if v > e[r]:
                        e[r] = v
                        chosen[r] = b
            elif b == yi and tracks_flag == 1:
                scored = values[_idx(nm, u, 1, p)]
                zero = values[_idx(nm, u, 0, p)]
                sc = score_t[b]
                for r in range(n_rolls):
                    v = sc[r] + scored if sc[r] > 0 else zero
                    if v > e[r]:
                        e[r] = v
                        chosen[r] = b
            else:
                vn = values[_idx(nm, u, y, p)]
                sc = score_t[b]
                for r in range(n_rolls):
                    v = sc[r] + vn
                    if v > e[r]:
                        e[r] = v
                        chosen[r] = b
        if want:
            for r in range(n_rolls):
                b = chosen[r]
                nm = mask | (1 << b)
                f = face_of_box[b]
                if f > 0:
                    g, nu = _upper_step(u, f * counts[r, f - 1], p)
                    j = _idx(nm, nu, y, p)
                elif b == yi and tracks_flag == 1:
                    g = score[r, b]
                    j = _idx(nm, u, 1 if g > 0 else 0, p)
                else:
                    g = score[r, b]
                    j = _idx(nm, u, y, p)
                e2[r] = g * g + 2.0 * g * values[j] + second[j]
        # ---- n of a kind with the Yahtzee box filled: bonus and joker rule
        if tracks_flag == 1 and (mask >> yi) & 1:
            bonus = float(y_bonus) if y == 1 else 0.0
            for r in range(n_rolls):
                f = kind_face[r]
                if f == 0:
                    continue
                matching = -1
                for b in range(n_boxes):
                    if face_of_box[b] == f:
                        matching = b
                lower_open = False
                for b in range(n_boxes):
                    if face_of_box[b] == 0 and b != yi and not (mask >> b) & 1:
                        lower_open = True
                matching_open = matching >= 0 and not (mask >> matching) & 1
                best = -np.inf
                best2 = 0.0
                for b in range(n_boxes):
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
                    v = g + values[j]
                    if v > best:
                        best = v
                        if want:
                            best2 = g * g + 2.0 * g * values[j] + second[j]
                e[r] = best
                e2[r] = best2
        # ---- rerolls: keepers recursion, then best keeper inside each roll
        for stage in range(rolls_per_turn):
            w[roll_offset:] = e
            if want:
                w2[roll_offset:] = e2
            for k in range(roll_offset - 1, -1, -1):
                acc = 0.0
                for f in range(faces):
                    acc += w[add_die[k, f]]
                w[k] = acc / faces
                if want:
                    acc2 = 0.0
                    for f in range(faces):
                        acc2 += w2[add_die[k, f]]
                    w2[k] = acc2 / faces
            if stage == rolls_per_turn - 1:
                break
            # best sub-keeper: m[k] = max(w[k], m[k minus one die]); sizes ascending
            for n in range(1, n_dice + 1):
                for k in range(level_start[n], level_start[n + 1]):
                    for jj in range(n):
                        c = remove_die[k, jj]
                        if w[c] > w[k]:
                            w[k] = w[c]
                            w2[k] = w2[c]
            e[:] = w[roll_offset:]
            if want:
                e2[:] = w2[roll_offset:]
        mean_out[s] = w[0]
        if want:
            second_out[s] = w2[0]
