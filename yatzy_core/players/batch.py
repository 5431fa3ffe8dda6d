"""Playing many games at once: rolling dice, which boxes are legal, and what a box is worth.

A game's position is its turn state (`StateSpace` index: used boxes, capped upper total, Yahtzee
flag); dice are roll indices into `rules.dice.rolls` and kept dice are keeper indices into
`rules.dice.keepers`, so a batch of games is a few integer arrays and every step is one numpy call.

What a box scores and whether it is allowed (the joker rule) is `turn.score_box`, the solver's own.

>>> from yatzy_core.game.rules import get_rules
>>> rules = get_rules("yahtzee")
>>> space = StateSpace(rules)
>>> yahtzee_used = space.index(1 << rules.yahtzee_index, 0, 1)
>>> sixes = rules.dice.roll_index[(0, 0, 0, 0, 0, 5)]
>>> scores = box_scores(space, np.array([yahtzee_used]), np.array([sixes]))[0]
>>> [rules.box_names[b] for b in np.flatnonzero(np.isfinite(scores))]  # forced joker: sixes only
['sixes']
>>> int(fill(space, np.array([yahtzee_used]), np.array([sixes]), np.array([5])).yahtzee_bonus[0])
100
"""
from __future__ import annotations

from functools import lru_cache
from typing import Protocol, runtime_checkable

import numpy as np

from ..game.dice import dice_space
from ..game.rules import Rules
from ..game.states import StateSpace
from ..engine.turn import NEG, Scored, score_box

__all__ = ["States", "Rolls", "Keepers", "Boxes", "reroll", "keepers_inside", "position_keepers",
           "contains", "box_scores", "score_rows", "now_points", "fill", "Strategy"]

States = np.ndarray   # (G,) int64 state indices, one per game
Rolls = np.ndarray    # (G,) int64 roll indices
Keepers = np.ndarray  # (G,) int64 keeper indices
Boxes = np.ndarray    # (G,) int64 box indices

MAX_GAMES = 2_000_000  # games one simulation plays at most: each holds about 1 KB of memory


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
def keepers_inside(rules: Rules) -> np.ndarray:
    """(n_rolls, 2**n_dice) the distinct keepers inside each roll, padded with -1, in the tie
    rule's order of preference (most dice first, then `dice.keepers` order): the rows of
    `dice.preferred_pairs`."""
    dice = rules.dice
    preferred, starts = dice.preferred_pairs
    out = np.full((dice.n_rolls, 1 << dice.n_dice), -1, dtype=np.int64)
    for r in range(dice.n_rolls):
        out[r, :starts[r + 1] - starts[r]] = preferred[starts[r]:starts[r + 1]]
    return out


@lru_cache(maxsize=None)
def position_keepers(rules: Rules) -> np.ndarray:
    """(n_rolls, 2**n_dice) the keeper of every subset of the dice's positions (with repeats):
    what a player who keeps each die or not sees."""
    dice = rules.dice
    n = dice.n_dice
    subsets = (np.arange(1 << n)[:, None] >> np.arange(n)) & 1          # (2**n, n) keep bits
    out = np.zeros((dice.n_rolls, 1 << n), dtype=np.int64)
    for r, counts in enumerate(dice.rolls):
        faces = np.repeat(np.arange(dice.faces), counts)                 # sorted dice, 0-based
        kept = np.zeros((1 << n, dice.faces), dtype=np.int64)
        np.add.at(kept, (np.repeat(np.arange(1 << n), n), np.tile(faces, 1 << n)), subsets.ravel())
        out[r] = [dice.keeper_index[tuple(int(x) for x in k)] for k in kept]
    return out


def contains(rules: Rules, keepers: Keepers, rolls: Rolls) -> np.ndarray:
    """Whether each keeper is a sub-multiset of its roll."""
    dice = rules.dice
    return (dice.keepers[keepers] <= dice.rolls[rolls]).all(axis=-1)


# ---- boxes ------------------------------------------------------------------------------------

def _grid(space: StateSpace, states: States, rolls: Rolls) -> Scored:
    """`score_box` of each game's roll in every box: (G, n_boxes) arrays."""
    boxes = np.arange(space.rules.n_boxes)
    return score_box(space, np.asarray(states)[:, None], np.asarray(rolls)[:, None], boxes[None, :])


def box_scores(space: StateSpace, states: States, rolls: Rolls) -> np.ndarray:
    """(G, n_boxes) points each game would write in each box with its roll; -inf if not allowed.

    Points in the box only: the upper bonus and Yahtzee bonus are counted apart.
    """
    s = _grid(space, states, rolls)
    return np.where(s.allowed, s.box_points, NEG)


def now_points(space: StateSpace, states: States, rolls: Rolls) -> np.ndarray:
    """(G, n_boxes) points each box would earn now, the upper bonus it completes included (the
    Yahtzee bonus is the same for every box); -inf if not allowed."""
    s = _grid(space, states, rolls)
    return np.where(s.allowed, s.box_points + s.upper_bonus, NEG)


def score_rows(space: StateSpace, states: States) -> np.ndarray:
    """(n_boxes, n_rolls, S) points of every roll in every box from each state (-inf: not
    allowed): `box_scores` for all rolls at once, for strategies that plan a whole turn."""
    rules = space.rules
    boxes = np.arange(rules.n_boxes)[:, None, None]
    rolls = np.arange(rules.dice.n_rolls)[None, :, None]
    s = score_box(space, np.asarray(states)[None, None, :], rolls, boxes)
    return np.where(s.allowed, s.box_points, NEG)


def fill(space: StateSpace, states: States, rolls: Rolls, boxes: Boxes) -> Scored:
    """Write each game's roll in its chosen box (`turn.score_box`); ValueError if a box is not allowed."""
    rules = space.rules
    boxes = np.asarray(boxes)
    if ((boxes < 0) | (boxes >= rules.n_boxes)).any():
        raise ValueError(f"box indices must be 0..{rules.n_boxes - 1}")
    s = score_box(space, states, rolls, boxes)
    if not s.allowed.all():
        bad = np.flatnonzero(~s.allowed)[0]
        raise ValueError(f"box {rules.box_names[boxes[bad]]!r} is used or not allowed "
                         f"for roll {rules.dice.rolls[np.asarray(rolls)[bad]].tolist()} (game {bad})")
    return s


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
