"""The compiled kernels' data layout: a rule set as plain arrays (`Settings`, `Tables`), a
layer's states cut into lane groups, and the state index every kernel computes.

States that share their used boxes (one box set) are solved together, LANES at a time: they
differ only in the upper total and the Yahtzee flag, so the open boxes, the roll scores and the
whole keeper recursion are the same code for all lanes (`kernel` and the kernels beside it).
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core import config

from ...game.rules import Rules
from ...game.states import StateSpace

__all__ = ["LANES", "Settings", "Tables", "tables", "lane_groups", "vectorizing", "allowed_boxes"]

LANES = 8    # states of one box set advanced together: the helpers hold them in 8 scalars, which
             # the compiler turns into one AVX-512 vector (16 lanes measured no faster)
JOKER_MODES = {"none": 0, "forced": 1, "free": 2}


class Settings(NamedTuple):
    """The rule set's numbers, as the kernel reads them."""

    n_upper: int          # upper totals kept per box set (cap + 1)
    n_flags: int          # 2 when the Yahtzee flag is tracked, else 1
    cap: int              # upper totals at or above the threshold are stored as this
    threshold: int        # upper total that earns the upper bonus
    upper_bonus: int      # 0 when the upper total is not tracked
    yahtzee_index: int    # box the Yahtzee bonus and joker refer to, -1 for none
    yahtzee_bonus: int
    joker_mode: int       # JOKER_MODES
    tracks_flag: int      # 1 when n_flags == 2
    rolls_per_turn: int
    roll_offset: int      # keeper index of the first roll of all the dice
    faces: int
    n_dice: int
    forced_order: int     # 1: only the first open box in card order may be filled


class Tables(NamedTuple):
    """Everything the kernels read about the rules and the dice, as plain arrays: one tuple that
    every compiled kernel takes whole (numba reads its fields as a struct's). Only arrays: numba's
    parallel loops cannot take a tuple that holds another one, so `Settings` travel beside it."""

    score: np.ndarray        # (R, B) float64 normal scores
    joker: np.ndarray        # (R, B) float64 joker scores
    face_of_box: np.ndarray  # (B,) upper face, 0 for lower boxes
    counts: np.ndarray       # (R, faces) dice per face
    kind_face: np.ndarray    # (R,) face of an n-of-a-kind roll, 0 otherwise
    add_die: np.ndarray      # (K, faces) keeper with one die more
    sub: np.ndarray          # (K, n_dice) distinct keepers with one die less, padded
    n_sub: np.ndarray        # (K,) how many of them
    first_roll: np.ndarray   # (R,) P(roll) for a roll of all the dice
    pref_keeper: np.ndarray  # sub-keepers of every roll, most dice first, then keeper order
    pref_start: np.ndarray   # (R + 1,) where each roll's run starts in pref_keeper
    points: np.ndarray       # (R, B) float64 points of a roll in a lower box (0 for upper boxes)
    row_of: np.ndarray       # (R, B) which row of `_box_rows` a roll reads for each box
    zero_row: np.ndarray     # (B,) the row read by a roll that scores nothing in the box
    scoring: np.ndarray      # (R, B) the boxes each roll scores in (points or a row of its own)
    n_scoring: np.ndarray    # (R,) how many
    level_start: np.ndarray  # (n_dice + 2,) first keeper of each size


@lru_cache(maxsize=16)
def tables(rules: Rules) -> tuple[Settings, Tables]:
    """The kernels' view of a rule set: its numbers and its arrays (built once per rule set)."""
    dice, space = rules.dice, StateSpace(rules)
    kind_face = np.zeros(dice.n_rolls, dtype=np.int64)
    for r in rules.n_of_a_kind_rolls:
        kind_face[r] = int(np.argmax(dice.rolls[r])) + 1
    settings = Settings(
        space.n_upper, space.n_flags, rules.upper_cap, rules.upper_bonus_threshold,
        rules.upper_bonus if rules.tracks_upper else 0, rules.yahtzee_index, rules.yahtzee_bonus,
        JOKER_MODES[rules.joker], int(rules.tracks_yahtzee_bonus), rules.rolls_per_turn,
        dice.roll_offset, dice.faces, rules.n_dice, int(getattr(rules, "forced_order", False)))
    sub = np.zeros_like(dice.remove_die)
    n_sub = np.zeros(dice.n_keepers, dtype=np.int64)
    for k, row in enumerate(dice.remove_die):
        if dice.keeper_size[k]:
            distinct = np.unique(row)
            sub[k, :len(distinct)] = distinct
            n_sub[k] = len(distinct)
    pref_keeper, pref_start = dice.preferred_pairs
    score = rules.score_table.astype(np.float64)
    upper = rules.upper_faces > 0
    row_of = np.where(upper, dice.rolls[:, np.maximum(rules.upper_faces - 1, 0)], 0)
    if rules.tracks_yahtzee_bonus:   # no n of a kind: the Yahtzee box's zero row
        row_of[:, rules.yahtzee_index] = np.where(score[:, rules.yahtzee_index] > 0, 0, 1)
    points = np.where(upper, 0.0, score)
    zero_row = np.zeros(rules.n_boxes, dtype=np.int64)
    if rules.tracks_yahtzee_bonus:
        zero_row[rules.yahtzee_index] = 1
    scores_in = (points != 0) | (row_of != zero_row)
    n_scoring = scores_in.sum(axis=1)
    scoring = np.zeros(scores_in.shape, dtype=np.int64)
    for r, row in enumerate(scores_in):
        scoring[r, :n_scoring[r]] = np.flatnonzero(row)
    return settings, Tables(score, rules.joker_table.astype(np.float64),
                  rules.upper_faces.astype(np.int64), dice.rolls.astype(np.int64), kind_face,
                  dice.add_die, sub, n_sub, dice.transition[0].copy(), pref_keeper, pref_start,
                  points, row_of.astype(np.int64), zero_row, scoring, n_scoring,
                  np.array([sl.start for sl in dice.level_slices] + [dice.n_keepers], dtype=np.int64))


def lane_groups(space: StateSpace, states: np.ndarray) -> np.ndarray:
    """(G, LANES) state indices: `states` (ascending) cut into groups of one box set each, the
    last lanes of a short group repeating its last state.

    >>> from yatzy_core.game.rules import get_rules
    >>> space = StateSpace(get_rules("yahtzee-no-bonus"))
    >>> lane_groups(space, space.index([1, 1, 2], [0, 1, 0]))[:, :3].tolist()
    [[64, 65, 65], [128, 128, 128]]
    """
    states = np.asarray(states, dtype=np.int64)
    masks = space.decode(states)[0]
    starts = np.flatnonzero(np.r_[True, masks[1:] != masks[:-1]])
    sizes = np.diff(np.r_[starts, len(states)])
    per_set = -(-sizes // LANES)
    first = np.repeat(starts, per_set) + LANES * (np.arange(per_set.sum())
                                                  - np.repeat(np.cumsum(per_set) - per_set, per_set))
    last = np.repeat(starts + sizes - 1, per_set)
    return states[np.minimum(first[:, None] + np.arange(LANES), last[:, None])]


@contextmanager
def vectorizing():
    """Compile with LLVM's SLP vectorizer on (numba leaves it off by default): it turns the
    lanes the kernels hold in 8 scalars into one vector instruction each, 2.5x faster here."""
    before, config.SLP_VECTORIZE = config.SLP_VECTORIZE, 1
    try:
        yield
    finally:
        config.SLP_VECTORIZE = before


@njit(cache=True)
def _upper_step(u, points, s):
    """(points incl. upper bonus, new capped upper total), whole numbers."""
    if s.n_upper == 1:
        return points, 0
    gain = points + (s.upper_bonus if (u < s.threshold and u + points >= s.threshold) else 0)
    return gain, min(u + points, s.cap)


@njit(cache=True)
def _idx(mask, u, y, s):
    """A state's index from its box set, upper total and Yahtzee flag (`states.StateSpace`)."""
    return (mask * s.n_upper + u) * s.n_flags + y


@njit(cache=True)
def allowed_boxes(mask, s):
    """Bit b set when box b may be filled from box set `mask`: every open box, or under forced
    order only the first open one."""
    return ~mask & (mask + 1) if s.forced_order == 1 else ~mask
