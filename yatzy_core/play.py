"""Playing many games at once: rolling dice, which boxes are legal, and what a box is worth.

A game's position is its turn state (`StateSpace` index: used boxes, capped upper total, Yahtzee
flag); dice are roll indices into `rules.dice.rolls` and kept dice are keeper indices into
`rules.dice.keepers`, so a batch of games is a few integer arrays and every step is one numpy call.

Legality is the solver's: `turn.box_values` marks with -inf every box that is used or that the
joker rule forbids. It differs from "the box is open" only for an n-of-a-kind roll once the
Yahtzee box is filled (the joker rows), so those rows, and only those, are taken from it.

>>> rules = get_rules("yahtzee")
>>> space = StateSpace(rules)
>>> yahtzee_used = space.index(1 << rules.yahtzee_index, 0, 1)
>>> sixes = rules.dice.roll_index[(0, 0, 0, 0, 0, 5)]
>>> scores = box_scores(space, np.array([yahtzee_used]), np.array([sixes]))[0]
>>> [rules.box_names[b] for b in np.flatnonzero(np.isfinite(scores))]  # forced joker: sixes only
['sixes']
>>> int(yahtzee_bonus(space, np.array([yahtzee_used]), np.array([sixes]))[0])
100
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np

from .dice import dice_space
from .rules import Rules, get_rules  # noqa: F401 (get_rules: the doctest)
from .states import StateSpace
from .turn import NEG, box_values, zero_values  # noqa: F401 (zero_values: re-exported)

States = np.ndarray   # (G,) int64 state indices, one per game
Rolls = np.ndarray    # (G,) int64 roll indices
Keepers = np.ndarray  # (G,) int64 keeper indices
Boxes = np.ndarray    # (G,) int64 box indices


# ---- dice -------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _codes(n_dice: int, faces: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Base-(n+1) codes of count vectors: code weights, every keeper's code, and the sorted
    roll codes with their roll indices (a code is a dice multiset as one integer)."""
    space = dice_space(n_dice, faces)
    weights = (n_dice + 1) ** np.arange(faces, dtype=np.int64)
    roll_codes = space.rolls @ weights
    order = np.argsort(roll_codes)
    return weights, space.keepers @ weights, roll_codes[order], order


def reroll(rules: Rules, keepers: Keepers, rng: np.random.Generator) -> Rolls:
    """Roll the dice not kept: every game draws n_dice faces and uses as many as it needs,
    so the random stream does not depend on the choices (same seed, same dice)."""
    dice = rules.dice
    keepers = np.asarray(keepers)
    weights, keeper_codes, roll_codes, roll_of = _codes(dice.n_dice, dice.faces)
    faces = rng.integers(0, dice.faces, size=keepers.shape + (dice.n_dice,), dtype=np.int8)
    free = dice.n_dice - dice.keeper_size[keepers]
    used = np.arange(dice.n_dice) < free[..., None]
    code = keeper_codes[keepers] + (weights[faces] * used).sum(axis=-1)
    return roll_of[np.searchsorted(roll_codes, code)]


@lru_cache(maxsize=None)
def subkeepers(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(n_rolls, 2**n_dice) distinct keepers inside each roll, padded with -1, and the keepers
    of every subset of dice positions (with repeats), in the same layout. Distinct keepers come
    in order of preference among equally good ones: most dice first, then `dice.keepers` order
    (the tie rule of `policy.py`)."""
    dice = rules.dice
    n = dice.n_dice
    subsets = (np.arange(1 << n)[:, None] >> np.arange(n)) & 1          # (2**n, n) keep bits
    distinct = np.full((dice.n_rolls, 1 << n), -1, dtype=np.int64)
    by_position = np.zeros((dice.n_rolls, 1 << n), dtype=np.int64)
    for r, counts in enumerate(dice.rolls):
        faces = np.repeat(np.arange(dice.faces), counts)                 # sorted dice, 0-based
        kept = np.zeros((1 << n, dice.faces), dtype=np.int64)
        np.add.at(kept, (np.repeat(np.arange(1 << n), n), np.tile(faces, 1 << n)), subsets.ravel())
        by_position[r] = [dice.keeper_index[tuple(int(x) for x in k)] for k in kept]
    preferred, starts = dice.preferred_pairs
    for r in range(dice.n_rolls):
        distinct[r, :starts[r + 1] - starts[r]] = preferred[starts[r]:starts[r + 1]]
    return distinct, by_position


def contains(rules: Rules, keepers: Keepers, rolls: Rolls) -> np.ndarray:
    """Whether each keeper is a sub-multiset of its roll."""
    dice = rules.dice
    return (dice.keepers[keepers] <= dice.rolls[rolls]).all(axis=-1)


# ---- boxes ------------------------------------------------------------------------------------

def _joker_rows(space: StateSpace, states: States) -> np.ndarray:
    """(n_boxes, n_rolls, S) box scores from the solver's legality: -inf where not allowed,
    and without the Yahtzee bonus and upper bonus that `box_values` adds to the points."""
    rules = space.rules
    points = box_values(space, zero_values(rules), states)
    bonus = yahtzee_bonus_table(space, states)                          # (n_rolls, S)
    points = points - bonus[None]
    upper = rules.upper_faces > 0
    normal = rules.score_table.T.astype(float)[:, :, None]               # (n_boxes, n_rolls, 1)
    points[upper] = np.where(np.isfinite(points[upper]), normal[upper], NEG)
    return points


def yahtzee_bonus_table(space: StateSpace, states: States) -> np.ndarray:
    """(n_rolls, S) Yahtzee bonus earned by each roll from each state, whatever the box."""
    rules = space.rules
    out = np.zeros((rules.dice.n_rolls, len(states)))
    if not rules.tracks_yahtzee_bonus:
        return out
    mask, _, flag = space.decode(states)
    earns = (flag == 1) & ((mask >> rules.yahtzee_index) & 1 == 1)
    out[np.ix_(rules.n_of_a_kind_rolls, np.flatnonzero(earns))] = rules.yahtzee_bonus
    return out


def yahtzee_bonus(space: StateSpace, states: States, rolls: Rolls) -> np.ndarray:
    """Yahtzee bonus each game earns with its roll (the same for every box it may choose)."""
    rules = space.rules
    if not rules.tracks_yahtzee_bonus:
        return np.zeros(len(states))
    mask, _, flag = space.decode(states)
    kind = np.isin(rolls, rules.n_of_a_kind_rolls)
    return np.where(kind & (flag == 1) & ((mask >> rules.yahtzee_index) & 1 == 1),
                    rules.yahtzee_bonus, 0).astype(float)


def _needs_joker(space: StateSpace, states: States, rolls: Rolls) -> np.ndarray:
    rules = space.rules
    if not rules.tracks_yahtzee_bonus:
        return np.zeros(len(states), dtype=bool)
    mask, _, _ = space.decode(states)
    return np.isin(rolls, rules.n_of_a_kind_rolls) & ((mask >> rules.yahtzee_index) & 1 == 1)


def box_scores(space: StateSpace, states: States, rolls: Rolls) -> np.ndarray:
    """(G, n_boxes) points each game would write in each box with its roll; -inf if not allowed.

    Points in the box only: the upper bonus and Yahtzee bonus are counted apart.
    """
    rules = space.rules
    states, rolls = np.asarray(states), np.asarray(rolls)
    mask, _, _ = space.decode(states)
    open_ = (mask[:, None] >> np.arange(rules.n_boxes)) & 1 == 0
    out = np.where(open_, rules.score_table[rolls].astype(float), NEG)
    special = np.flatnonzero(_needs_joker(space, states, rolls))
    if len(special):
        keys, inverse = np.unique(states[special], return_inverse=True)
        rows = _joker_rows(space, keys)                                  # (n_boxes, n_rolls, K)
        out[special] = rows[:, rolls[special], inverse].T
    return out


def score_rows(space: StateSpace, states: States) -> np.ndarray:
    """(n_boxes, n_rolls, S) points of every roll in every box from each state (-inf: not
    allowed): `box_scores` for all rolls at once, for strategies that plan a whole turn."""
    rules = space.rules
    states = np.asarray(states)
    mask, _, _ = space.decode(states)
    open_ = (mask[None, :] >> np.arange(rules.n_boxes)[:, None]) & 1 == 0   # (n_boxes, S)
    out = np.where(open_[:, None, :], rules.score_table.T.astype(float)[:, :, None], NEG)
    if rules.tracks_yahtzee_bonus:
        filled = np.flatnonzero((mask >> rules.yahtzee_index) & 1 == 1)
        if len(filled):
            kinds = rules.n_of_a_kind_rolls
            rows = _joker_rows(space, states[filled])
            out[np.ix_(np.arange(rules.n_boxes), kinds, filled)] = rows[:, kinds]
    return out


class Scored(NamedTuple):
    """What filling a box did: the next state and the points, split as on a score card."""

    states: States
    box_points: np.ndarray
    upper_bonus: np.ndarray
    yahtzee_bonus: np.ndarray


def fill(space: StateSpace, states: States, rolls: Rolls, boxes: Boxes) -> Scored:
    """Write each game's roll in its chosen box; ValueError if a box is not allowed."""
    rules = space.rules
    states, rolls, boxes = np.asarray(states), np.asarray(rolls), np.asarray(boxes)
    G = len(states)
    if ((boxes < 0) | (boxes >= rules.n_boxes)).any():
        raise ValueError(f"box indices must be 0..{rules.n_boxes - 1}")
    mask, upper, flag = space.decode(states)
    points = np.where((mask >> boxes) & 1 == 0, rules.score_table[rolls, boxes], NEG)
    special = np.flatnonzero(_needs_joker(space, states, rolls))
    if len(special):
        points[special] = box_scores(space, states[special], rolls[special])[
            np.arange(len(special)), boxes[special]]
    if not np.isfinite(points).all():
        bad = np.flatnonzero(~np.isfinite(points))[0]
        raise ValueError(f"box {rules.box_names[boxes[bad]]!r} is used or not allowed "
                         f"for roll {rules.dice.rolls[rolls[bad]].tolist()} (game {bad})")
    face = rules.upper_faces[boxes]
    upper_bonus = np.zeros(G)
    if rules.tracks_upper:
        gained = np.where(face > 0, points, 0).astype(np.int64)
        crossed = (upper < rules.upper_bonus_threshold) & (upper + gained >= rules.upper_bonus_threshold)
        upper_bonus = np.where(crossed, rules.upper_bonus, 0).astype(float)
        upper = np.minimum(upper + gained, rules.upper_cap)
    if rules.tracks_yahtzee_bonus:
        flag = np.where((boxes == rules.yahtzee_index) & (points > 0), 1, flag)
    bonus = yahtzee_bonus(space, states, rolls)
    return Scored(space.index(mask | (1 << boxes), upper, flag), points, upper_bonus, bonus)


def upper_bonus_now(space: StateSpace, states: States, scores: np.ndarray) -> np.ndarray:
    """(G, n_boxes) upper bonus each box would earn now with the points in `scores`."""
    rules = space.rules
    if not rules.tracks_upper:
        return np.zeros_like(scores)
    _, upper, _ = space.decode(states)
    gain = np.where(rules.upper_faces > 0, np.where(np.isfinite(scores), scores, 0), 0)
    crossed = (upper[:, None] < rules.upper_bonus_threshold) & \
              (upper[:, None] + gain >= rules.upper_bonus_threshold)
    return np.where(crossed, rules.upper_bonus, 0.0)


# ---- the protocol -----------------------------------------------------------------------------

@runtime_checkable
class Strategy(Protocol):
    """A player for one rule set, deciding for a batch of games at once.

    `keep` gets each game's state, roll and rerolls left (>= 1) and returns a keeper inside the
    roll (keeping every die ends the rolling); `box` gets the final roll and returns a box
    that `box_scores` allows. A single game is a batch of one.
    """

    name: str
    rules: Rules

    def keep(self, states: States, rolls: Rolls, rerolls: int,
             rng: np.random.Generator) -> Keepers: ...

    def box(self, states: States, rolls: Rolls, rng: np.random.Generator) -> Boxes: ...
