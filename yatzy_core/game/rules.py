"""Rules as data: a rule set is a frozen value listing its boxes and bonuses, never a code path.

Every scorer takes count vectors (shape (..., faces)) and returns the box score for each, so a
rule set's whole score table (252 rolls x boxes) is one vectorized call per box. The built-in
rule sets are TOML files in `yatzy_core/game/rulesets/` (see rulefile.py); each box there names one
scorer of `CATALOGUE`.

>>> yatzy = get_rules("yatzy")
>>> yatzy.score("two_pairs", [1, 2, 2, 4, 4]), yatzy.score("full_house", [5, 5, 6, 6, 6])
(12, 28)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from itertools import permutations
from pathlib import Path
from typing import Callable, Literal, NamedTuple

import numpy as np

from .dice import DiceSpace, dice_space

MAX_BOXES = 20   # Maxi Yatzy's card; 2**20 box sets x upper totals is what fits in memory

__all__ = ["Scorer", "Joker", "CATALOGUE", "make_scorer", "Box", "Rules", "get_rules", "rule_names"]

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


def groups(sizes: tuple[int, ...], points: int | None = None) -> Scorer:
    """Best sum of groups of dice showing different faces, group i holding sizes[i] dice
    (pairs, full house 3+2, villa 3+3, tower 4+2), or the fixed `points` when such groups show.

    >>> int(groups((3, 2))(np.array([0, 3, 0, 1, 2, 0])))  # 2,2,2,4,5,5: 2+2+2 + 5+5
    16
    """
    need = np.array(sizes)

    def score(counts):
        chosen = _ordered_faces(counts.shape[-1], len(sizes))   # (P, groups) face indices
        shown = (counts[..., chosen] >= need).all(axis=-1)       # (..., P)
        best = np.where(shown, (chosen + 1) @ need, 0).max(axis=-1, initial=0)  # none: 0
        return best if points is None else np.where(best > 0, points, 0)
    return score


@lru_cache(maxsize=None)
def _ordered_faces(faces: int, k: int) -> np.ndarray:
    """Every ordered choice of k different face indices, one per row."""
    return np.array(list(permutations(range(faces), k)), dtype=np.int64).reshape(-1, k)


def of_a_kind_sum(n: int) -> Scorer:
    """n times the highest face shown at least n times (Yatzy's pair, 3 and 4 of a kind)."""
    return groups((n,))


def of_a_kind_total(n: int) -> Scorer:
    """Sum of all dice when at least n show one face (Yahtzee's 3/4 of a kind)."""
    def score(counts):
        return np.where(counts.max(axis=-1) >= n, total(counts), 0)
    return score


def n_of_a_kind_fixed(points: int) -> Scorer:
    """`points` when every die shows the same face (Yahtzee / Yatzy / Maxi Yatzy)."""
    def score(counts):
        return np.where(counts.max(axis=-1) == counts.sum(axis=-1), points, 0)
    return score


def full_house_fixed(points: int) -> Scorer:
    """`points` for three of one face and two of another."""
    return groups((3, 2), points)


full_house_total = groups((3, 2))   # sum of three of one face and two of another (Yatzy)
two_pairs = groups((2, 2))           # two pairs of different faces, each counted once (Yatzy)


def straight_fixed(length: int, points: int) -> Scorer:
    """`points` when the dice contain `length` consecutive faces (Yahtzee's straights)."""
    def score(counts):
        present = counts > 0
        runs = [present[..., s:s + length].all(axis=-1) for s in range(counts.shape[-1] - length + 1)]
        return np.where(np.any(runs, axis=0), points, 0)
    return score


def faces_shown(faces: tuple[int, ...], points: int) -> Scorer:
    """`points` when every one of these faces shows (Yatzy's 1-2-3-4-5: with five dice that is
    exactly those faces; with six dice the sixth die is free)."""
    def score(counts):
        return np.where((counts[..., [f - 1 for f in faces]] > 0).all(axis=-1), points, 0)
    return score


def two_pairs_or_one_pair(counts):
    """The thesis reading behind 248.63: two pairs as above, else a single pair also scores."""
    return np.where(two_pairs(counts) > 0, two_pairs(counts), of_a_kind_sum(2)(counts))


# ---- the catalogue: the scorers a rule file may name ------------------------------------------

class Kind(NamedTuple):
    """One catalogue entry: its parameters (required, then optional) and how to build it."""

    make: Callable[..., Scorer]
    required: tuple[str, ...]
    optional: tuple[str, ...]
    description: str


def _sum_or_points(sizes):
    return lambda points=None: groups(sizes, points)


CATALOGUE: dict[str, Kind] = {
    "upper": Kind(upper, ("face",), (), "face x the dice showing it; counts toward the upper bonus"),
    "of_a_kind": Kind(of_a_kind_sum, ("n",), (),
                      "n dice of one face: the sum of those n dice (the highest such face)"),
    "of_a_kind_total": Kind(of_a_kind_total, ("n",), (), "n dice of one face: the sum of all dice"),
    "pairs": Kind(lambda count: groups((2,) * count), ("count",), (),
                  "count pairs of different faces (1-3): the sum of those dice"),
    "full_house": Kind(_sum_or_points((3, 2)), (), ("points",),
                       "3 of one face + 2 of another: points, else the sum of those 5 dice"),
    "villa": Kind(_sum_or_points((3, 3)), (), ("points",),
                  "3 of one face + 3 of another: points, else the sum of those 6 dice"),
    "tower": Kind(_sum_or_points((4, 2)), (), ("points",),
                  "4 of one face + 2 of another: points, else the sum of those 6 dice"),
    "straight": Kind(lambda faces, points: faces_shown(tuple(faces), points), ("faces", "points"), (),
                     "points when every listed face shows (Yatzy's 1-2-3-4-5)"),
    "run": Kind(straight_fixed, ("length", "points"), (),
                "points when the dice hold `length` consecutive faces (Yahtzee's straights)"),
    "chance": Kind(lambda: total, (), (), "the sum of all dice"),
    "all_same": Kind(n_of_a_kind_fixed, ("points",), (),
                     "points when every die shows one face (Yahtzee, Yatzy, Maxi Yatzy)"),
    "two_pairs_or_one_pair": Kind(lambda: two_pairs_or_one_pair, (), (),
                                  "two pairs, else a single pair also scores (the thesis reading)"),
}


def make_scorer(kind: str, **params) -> Scorer:
    """The catalogue scorer `kind` with these parameters; it remembers them as `.spec`.

    >>> villa = make_scorer("villa")
    >>> int(villa(np.array([0, 3, 0, 0, 3, 0]))), villa.spec
    (21, {'scorer': 'villa'})
    """
    if kind not in CATALOGUE:
        raise ValueError(f"unknown scorer {kind!r}; choose one of: {', '.join(CATALOGUE)}")
    inner = CATALOGUE[kind].make(**params)

    def score(counts):
        return inner(counts)
    score.__name__ = kind
    score.spec = {"scorer": kind, **params}
    return score


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

    @property
    def spec(self) -> dict | None:
        """The catalogue scorer and parameters of this box (None for a hand-made scorer)."""
        return getattr(self.scorer, "spec", None)


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
    forced_order: bool = False        # each turn must fill the next open box in card order
    saved_rolls: bool = False         # rolls a turn leaves unused carry over to later turns

    def __post_init__(self):
        names = [b.name for b in self.boxes]
        if not 1 <= len(names) <= MAX_BOXES:
            raise ValueError(f"a rule set has 1 to {MAX_BOXES} boxes (the solver keeps 2**boxes "
                             f"box sets), got {len(names)}")
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate box names in {names}")
        for face in {b.face for b in self.boxes if b.face is not None}:
            same = [b.name for b in self.boxes if b.face == face]
            if len(same) > 1:   # the upper total would count that face twice toward the bonus
                raise ValueError(f"upper boxes {', '.join(same)} both count face {face}; "
                                 f"at most one upper box per face")
        if self.yahtzee_box is not None and self.yahtzee_box not in names:
            raise ValueError(f"yahtzee_box {self.yahtzee_box!r} is not one of the boxes {names}")
        if self.saved_rolls and self.tracks_yahtzee_bonus:
            raise ValueError("saved_rolls is solved without a Yahtzee bonus or joker rule; set "
                             "yahtzee_bonus = 0 and joker = \"none\"")
        if self.forced_order and self.joker != "none":
            raise ValueError(f"forced_order needs joker 'none' (the next box is the only choice), "
                             f"got joker {self.joker!r}")

    @classmethod
    def from_file(cls, path) -> "Rules":
        """Read a rule file (TOML, see rulefile.py); ValueError naming the file and field."""
        from .rulefile import load
        return load(path)

    def to_toml(self) -> str:
        """This rule set as rule-file text (`Rules.from_file` reads it back to an equal value)."""
        from .rulefile import dumps
        return dumps(self)

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


UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")

# The rule sets shipped as yatzy_core/game/rulesets/<name>.toml. CLASSIC are the five whose numbers
# the notebooks, studies and widgets show; the others are newer and some need more than 5 dice.
CLASSIC = ("yahtzee", "yahtzee-verhoeff", "yahtzee-no-bonus", "yatzy", "yatzy-thesis")
BUILTIN = CLASSIC + ("forced-yatzy", "yahtzee-3-rerolls", "maxi-yatzy", "maxi-yatzy-no-saved-rolls")
RULESETS = Path(__file__).with_name("rulesets")

_CACHE: dict[str, Rules] = {}


def get_rules(name: str | Rules) -> Rules:
    """A built-in rule set by name (or a Rules value, returned as is)."""
    if isinstance(name, Rules):
        return name
    if name not in BUILTIN:
        raise ValueError(f"unknown rules {name!r}; choose one of: {', '.join(BUILTIN)}")
    if name not in _CACHE:
        _CACHE[name] = Rules.from_file(RULESETS / f"{name}.toml")
    return _CACHE[name]


def rule_names(include_new: bool = False) -> list[str]:
    """Names of the built-in rule sets: the five classic ones, or with include_new all of them.

    >>> rule_names(include_new=True)[5:]
    ['forced-yatzy', 'yahtzee-3-rerolls', 'maxi-yatzy', 'maxi-yatzy-no-saved-rolls']
    """
    return list(BUILTIN if include_new else CLASSIC)
