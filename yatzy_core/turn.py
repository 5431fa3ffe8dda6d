"""One turn, for many states at once: the solver's inner loop, kept in this one module.

Arrays are laid out (rolls or keepers, states) so that every step is a row operation over a
block of states. With 0 rerolls left a roll is worth its best box; with rerolls left a keeper K
is worth keep[K] = 1/6 sum_d keep[K + {d}] (the keepers recursion, never a sum over 252 rolls),
and a roll is worth its best sub-keeper.
"""
from __future__ import annotations

import numpy as np

from .states import StateSpace

NEG = -np.inf


def keeper_values(space: StateSpace, roll_values: np.ndarray) -> np.ndarray:
    """(n_keepers, S) expected value of each keeper, from (n_rolls, S) values of the rolls."""
    dice = space.rules.dice
    levels = dice.level_slices
    out = np.empty((dice.n_keepers,) + roll_values.shape[1:])
    out[levels[-1]] = roll_values
    for level in reversed(levels[:-1]):
        children = dice.add_die[level]          # (k_n, faces) keepers with one die more
        acc = out[children[:, 0]]
        for f in range(1, dice.faces):
            acc += out[children[:, f]]
        out[level] = acc * (1.0 / dice.faces)
    return out


def best_subkeeper(space: StateSpace, keep: np.ndarray, argmax: bool = False):
    """(n_rolls, S) value of each roll: the best keeper inside it (keeping all = scoring now).

    With argmax, also returns the chosen keeper index per (roll, state).
    """
    dice = space.rules.dice
    levels = dice.level_slices
    best = keep.copy()
    arg = None
    if argmax:
        arg = np.broadcast_to(np.arange(dice.n_keepers)[:, None], keep.shape).copy()
    for n, level in enumerate(levels[1:], start=1):
        for j in range(n):
            smaller = dice.remove_die[level, j]
            cand = best[smaller]
            if argmax:
                better = cand > best[level]
                arg[level] = np.where(better, arg[smaller], arg[level])
            np.maximum(best[level], cand, out=best[level])
    rolls = levels[-1]
    return (best[rolls], arg[rolls]) if argmax else best[rolls]


def zero_values(rules) -> np.ndarray:
    """State values that are all 0 (a read-only view, no memory): `box_values` then gives the
    points each box scores now, bonuses included, and -inf where it is not allowed."""
    return np.broadcast_to(np.zeros(1), (StateSpace(rules).size,))


def box_values(space: StateSpace, values: np.ndarray, states: np.ndarray) -> np.ndarray:
    """(n_boxes, n_rolls, S) value of scoring each roll in each box, from each state:
    points now (box, upper bonus, Yahtzee bonus) plus the value of the next state; -inf where
    the box is used or the joker rule forbids it."""
    rules = space.rules
    mask, upper, flag = space.decode(states)
    n_rolls, S = rules.dice.n_rolls, len(states)
    out = np.full((rules.n_boxes, n_rolls, S), NEG)
    for b in range(rules.n_boxes):
        open_ = (mask >> b) & 1 == 0
        if not open_.any():
            continue
        out[b] = _normal_box_value(space, values, b, mask, upper, flag, open_)
    if rules.tracks_yahtzee_bonus:
        _apply_joker(space, values, out, mask, upper, flag)
    return out


def _next_value(space, values, mask, upper, flag, open_):
    """Value of the next state, -inf where the box was not open."""
    v = values[space.index(mask, upper, flag)]
    return np.where(open_, v, NEG)


def _upper_gain(space, upper, points):
    """(points now incl. upper bonus, new capped total) after adding `points` to the upper total."""
    rules = space.rules
    if not rules.tracks_upper:
        return points, upper
    new = np.minimum(upper + points, rules.upper_cap)
    bonus = np.where((upper < rules.upper_bonus_threshold) & (upper + points >= rules.upper_bonus_threshold),
                     rules.upper_bonus, 0)
    return points + bonus, new


def _normal_box_value(space, values, b, mask, upper, flag, open_):
    rules = space.rules
    bit = mask | (1 << b)
    face = int(rules.upper_faces[b])
    if face:
        counts = rules.dice.rolls[:, face - 1]
        per_count = np.empty((rules.n_dice + 1, len(mask)))
        for c in range(rules.n_dice + 1):
            gain, new_upper = _upper_gain(space, upper, face * c)
            per_count[c] = gain + _next_value(space, values, bit, new_upper, flag, open_)
        return per_count[counts]
    score = rules.score_table[:, b].astype(float)
    if b == rules.yahtzee_index and rules.tracks_yahtzee_bonus:
        scored = _next_value(space, values, bit, upper, 1, open_)
        zero = _next_value(space, values, bit, upper, 0, open_)
        return np.where((score > 0)[:, None], score[:, None] + scored, zero)
    return score[:, None] + _next_value(space, values, bit, upper, flag, open_)


def _apply_joker(space, values, out, mask, upper, flag):
    """Rows of the n-of-a-kind rolls when the Yahtzee box is filled: bonus and joker rule."""
    rules = space.rules
    filled = (mask >> rules.yahtzee_index) & 1 == 1
    if not filled.any():
        return
    bonus = np.where(flag == 1, rules.yahtzee_bonus, 0)
    upper_boxes = rules.upper_faces > 0
    for r in rules.n_of_a_kind_rolls:
        face = int(np.argmax(rules.dice.rolls[r])) + 1
        matching = int(np.flatnonzero(rules.upper_faces == face)[0]) if face in rules.upper_faces else -1
        cand = np.full((rules.n_boxes, len(mask)), NEG)
        for b in range(rules.n_boxes):
            if b == rules.yahtzee_index:
                continue
            open_ = (mask >> b) & 1 == 0
            bit = mask | (1 << b)
            if upper_boxes[b]:
                gain, new_upper = _upper_gain(space, upper, int(rules.score_table[r, b]))
                cand[b] = gain + _next_value(space, values, bit, new_upper, flag, open_)
                continue
            points = rules.joker_table[r, b]
            if rules.joker == "free" and matching >= 0:
                # Verhoeff: fixed joker values only once the matching upper box is used
                matching_used = (mask >> matching) & 1 == 1
                points = np.where(matching_used, rules.joker_table[r, b], rules.score_table[r, b])
            elif rules.joker == "none":
                points = rules.score_table[r, b]
            cand[b] = points + _next_value(space, values, bit, upper, flag, open_)
        if rules.joker == "forced":
            lower_open = np.isfinite(cand[~upper_boxes]).any(axis=0)
            if matching >= 0:
                matching_open = np.isfinite(cand[matching])
                keep_only = np.full(rules.n_boxes, False)
                keep_only[matching] = True
                cand = np.where(matching_open[None, :] & ~keep_only[:, None], NEG, cand)
            else:
                matching_open = np.zeros(len(mask), dtype=bool)
            # no matching upper box: an open lower box if any, else a zero in an upper box
            drop_upper = ~matching_open & lower_open
            cand[upper_boxes] = np.where(drop_upper[None, :], NEG, cand[upper_boxes])
        out[:, r, filled] = (cand + bonus)[:, filled]


def turn_values(space: StateSpace, values: np.ndarray, states: np.ndarray) -> np.ndarray:
    """Value at the start of the turn of each state in `states`, given `values` of later states."""
    roll_values = box_values(space, values, states).max(axis=0)
    for _ in range(space.rules.rolls_per_turn - 1):
        roll_values = best_subkeeper(space, keeper_values(space, roll_values))
    return keeper_values(space, roll_values)[0]
