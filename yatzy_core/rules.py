"""Rules as data: a rule set is a frozen value listing its boxes and bonuses, never a code path.

Every scorer takes count vectors (shape (..., faces)) and returns the box score for each, so a
rule set's whole score table (252 rolls x boxes) is one vectorized call per box.

>>> yatzy = get_rules("yatzy")
>>> yatzy.score("two_pairs", [1, 2, 2, 4, 4]), yatzy.score("full_house", [5, 5, 6, 6, 6])
(12, 28)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Callable, Literal

import numpy as np

from .dice import DiceSpace, dice_space

Scorer = Callable[[np.ndarray], np.ndarray]
Joker = Literal["none", "forced", "free"]


# ---- scorers over count vectors ---------------------------------------------------------------

def _faces(counts: np.ndarray) -> np.ndarray:
    return np.arange(1, counts.shape[-1] + 1)


def total(counts):
    """Sum of all dice."""
    return (counts * _faces(counts)).sum(axis=-1)


def upper(face: int) -> Scorer:
    """face times the number of dice showing it."""
    def score(counts):
        return face * counts[..., face - 1]
    score.__name__ = f"upper_{face}"
    return score


def of_a_kind_total(n: int) -> Scorer:
    """Sum of all dice when at least n show one face (Yahtzee's 3/4 of a kind)."""
    def score(counts):
        return np.where(counts.max(axis=-1) >= n, total(counts), 0)
    return score


def of_a_kind_sum(n: int) -> Scorer:
    """n times the highest face shown at least n times (Yatzy's pair, 3 and 4 of a kind)."""
    def score(counts):
        faces = _faces(counts)
        return n * np.max(np.where(counts >= n, faces, 0), axis=-1)
    return score


def n_of_a_kind_fixed(points: int) -> Scorer:
    """`points` when every die shows the same face (Yahtzee / Yatzy)."""
    def score(counts):
        return np.where(counts.max(axis=-1) == counts.sum(axis=-1), points, 0)
    return score


def full_house_fixed(points: int) -> Scorer:
    """`points` for three of one face and two of another."""
    def score(counts):
        return np.where(_full_house(counts), points, 0)
    return score


def full_house_total(counts):
    """Sum of the dice for three of one face and two of another (Yatzy)."""
    return np.where(_full_house(counts), total(counts), 0)


def _full_house(counts):
    return (counts == 3).any(axis=-1) & (counts == 2).any(axis=-1)


def straight_fixed(length: int, points: int) -> Scorer:
    """`points` when the dice contain `length` consecutive faces (Yahtzee's straights)."""
    def score(counts):
        present = counts > 0
        runs = [present[..., s:s + length].all(axis=-1) for s in range(counts.shape[-1] - length + 1)]
        return np.where(np.any(runs, axis=0), points, 0)
    return score


def exact_faces(faces: tuple[int, ...], points: int) -> Scorer:
    """`points` when the dice show exactly these faces (Yatzy's 1-2-3-4-5 and 2-3-4-5-6)."""
    def score(counts):
        want = np.zeros(counts.shape[-1], dtype=np.int64)
        want[[f - 1 for f in faces]] = 1
        return np.where((counts == want).all(axis=-1), points, 0)
    return score


def two_pairs(counts):
    """Sum of two pairs of different faces, each counted once (Yatzy)."""
    faces = _faces(counts)
    paired = np.where(counts >= 2, faces, 0)
    top = paired.max(axis=-1)
    second = np.where(paired == top[..., None], 0, paired).max(axis=-1)
    return np.where(second > 0, 2 * (top + second), 0)


def two_pairs_or_one_pair(counts):
    """The thesis reading behind 248.63: two pairs as above, else a single pair also scores."""
    return np.where(two_pairs(counts) > 0, two_pairs(counts), of_a_kind_sum(2)(counts))


# ---- boxes and rule sets -----------------------------------------------------------------------

@dataclass(frozen=True)
class Box:
    """One box of the score card: its name, scorer, upper face (None for lower boxes) and the
    fixed value it takes as a joker (None: the normal scorer, e.g. the dice total)."""

    name: str
    scorer: Scorer = field(compare=False)
    face: int | None = None
    joker_value: int | None = None
    max_score: int = 0

    @property
    def is_upper(self) -> bool:
        return self.face is not None


@dataclass(frozen=True)
class Rules:
    """A complete rule set; the solver, advisor and strategies read everything from here."""

    name: str
    boxes: tuple[Box, ...]
    upper_bonus_threshold: int = 63   # upper total that earns the bonus (also the state cap)
    upper_bonus: int = 35             # 0: no bonus, and the upper total need not be tracked
    yahtzee_box: str | None = None    # the n-of-a-kind box the bonus and joker refer to
    yahtzee_bonus: int = 0            # for each further n of a kind while that box holds its score
    joker: Joker = "none"             # "forced": Hasbro's order; "free": Verhoeff's reading
    n_dice: int = 5
    faces: int = 6
    rolls_per_turn: int = 3
    description: str = ""

    def __post_init__(self):
        names = [b.name for b in self.boxes]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate box names in {names}")
        if self.yahtzee_box is not None and self.yahtzee_box not in names:
            raise ValueError(f"yahtzee_box {self.yahtzee_box!r} is not one of the boxes {names}")

    # -- derived tables
    @property
    def dice(self) -> DiceSpace:
        return dice_space(self.n_dice, self.faces)

    @cached_property
    def box_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.boxes)

    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    def box_index(self, name: str) -> int:
        """Index of a box by name; ValueError listing the valid names."""
        try:
            return self.box_names.index(name)
        except ValueError:
            raise ValueError(f"unknown box {name!r} for rules {self.name!r}; "
                             f"boxes are: {', '.join(self.box_names)}") from None

    @cached_property
    def upper_faces(self) -> np.ndarray:
        """Face of each box, 0 for lower boxes."""
        return np.array([b.face or 0 for b in self.boxes], dtype=np.int64)

    @property
    def tracks_upper(self) -> bool:
        return self.upper_bonus > 0

    @property
    def upper_cap(self) -> int:
        """Largest upper total worth remembering (0 when there is no bonus)."""
        return self.upper_bonus_threshold if self.tracks_upper else 0

    @property
    def tracks_yahtzee_bonus(self) -> bool:
        return self.yahtzee_box is not None and (self.yahtzee_bonus > 0 or self.joker != "none")

    @cached_property
    def yahtzee_index(self) -> int:
        return -1 if self.yahtzee_box is None else self.box_index(self.yahtzee_box)

    @cached_property
    def score_table(self) -> np.ndarray:
        """(n_rolls, n_boxes) int64 normal score of every roll in every box."""
        rolls = self.dice.rolls
        return np.stack([np.asarray(b.scorer(rolls), dtype=np.int64) for b in self.boxes], axis=1)

    @cached_property
    def joker_table(self) -> np.ndarray:
        """(n_rolls, n_boxes) score of each roll used as a joker (n of a kind only)."""
        table = self.score_table.copy()
        for j, b in enumerate(self.boxes):
            if b.joker_value is not None:
                table[:, j] = b.joker_value
        return table

    @cached_property
    def n_of_a_kind_rolls(self) -> np.ndarray:
        """Roll indices where every die shows the same face, ordered by face."""
        rolls = self.dice.rolls
        return np.flatnonzero(rolls.max(axis=1) == self.n_dice)

    def score(self, box: str, dice) -> int:
        """Normal score of a list of dice in one box (no joker, no bonus)."""
        counts = np.array(self.dice.validate(dice))
        return int(self.boxes[self.box_index(box)].scorer(counts))

    def with_(self, **changes) -> "Rules":
        """A copy with some fields changed (a new variant is a new value)."""
        return replace(self, **changes)


def _box(name, scorer, face=None, joker_value=None, max_score=0):
    return Box(name, scorer, face, joker_value, max_score)


UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")


def _upper_boxes(n_dice=5):
    return tuple(_box(n, upper(f), face=f, max_score=f * n_dice) for f, n in enumerate(UPPER_NAMES, 1))


def yahtzee_rules(name="yahtzee", joker: Joker = "forced", yahtzee_bonus=100, description="") -> Rules:
    """Hasbro Yahtzee, 13 boxes, with the given Yahtzee-bonus and joker reading."""
    lower = (
        _box("three_of_a_kind", of_a_kind_total(3), max_score=30),
        _box("four_of_a_kind", of_a_kind_total(4), max_score=30),
        _box("full_house", full_house_fixed(25), joker_value=25, max_score=25),
        _box("small_straight", straight_fixed(4, 30), joker_value=30, max_score=30),
        _box("large_straight", straight_fixed(5, 40), joker_value=40, max_score=40),
        _box("yahtzee", n_of_a_kind_fixed(50), max_score=50),
        _box("chance", total, max_score=30),
    )
    return Rules(name, _upper_boxes() + lower, 63, 35, "yahtzee", yahtzee_bonus, joker,
                 description=description)


def yatzy_rules(name="yatzy", two_pairs_scorer: Scorer = two_pairs, description="") -> Rules:
    """Scandinavian Yatzy, 15 boxes, upper bonus 50 at 63."""
    lower = (
        _box("one_pair", of_a_kind_sum(2), max_score=12),
        _box("two_pairs", two_pairs_scorer, max_score=22),
        _box("three_of_a_kind", of_a_kind_sum(3), max_score=18),
        _box("four_of_a_kind", of_a_kind_sum(4), max_score=24),
        _box("small_straight", exact_faces((1, 2, 3, 4, 5), 15), max_score=15),
        _box("large_straight", exact_faces((2, 3, 4, 5, 6), 20), max_score=20),
        _box("full_house", full_house_total, max_score=28),
        _box("chance", total, max_score=30),
        _box("yatzy", n_of_a_kind_fixed(50), max_score=50),
    )
    return Rules(name, _upper_boxes() + lower, 63, 50, description=description)


BUILTIN: dict[str, Callable[[], Rules]] = {
    "yahtzee": lambda: yahtzee_rules(
        "yahtzee", "forced", 100,
        "Hasbro Yahtzee: upper bonus 35, Yahtzee bonus 100, forced joker rule"),
    "yahtzee-verhoeff": lambda: yahtzee_rules(
        "yahtzee-verhoeff", "free", 100,
        "Verhoeff's joker reading: an extra Yahtzee may go in any open box"),
    "yahtzee-no-bonus": lambda: yahtzee_rules(
        "yahtzee-no-bonus", "none", 0, "Yahtzee without the Yahtzee bonus or joker"),
    "yatzy": lambda: yatzy_rules("yatzy", description="Scandinavian Yatzy, 15 boxes, upper bonus 50"),
    "yatzy-thesis": lambda: yatzy_rules(
        "yatzy-thesis", two_pairs_or_one_pair,
        "Yatzy with the thesis's two-pairs bug: a single pair also scores in two pairs"),
}

_CACHE: dict[str, Rules] = {}


def get_rules(name: str | Rules) -> Rules:
    """A built-in rule set by name (or a Rules value, returned as is)."""
    if isinstance(name, Rules):
        return name
    if name not in BUILTIN:
        raise ValueError(f"unknown rules {name!r}; choose one of: {', '.join(BUILTIN)}")
    if name not in _CACHE:
        _CACHE[name] = BUILTIN[name]()
    return _CACHE[name]


def rule_names() -> list[str]:
    return list(BUILTIN)
