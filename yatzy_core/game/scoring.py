"""Scoring as data: the scorers a rule file may name (the catalogue) and the boxes built from them.

Every scorer takes count vectors (shape (..., faces)) and returns the box score for each, so a
rule set's whole score table (252 rolls x boxes) is one vectorized call per box.

>>> villa = make_scorer("villa")
>>> int(villa(np.array([0, 3, 0, 0, 3, 0]))), villa.spec
(21, {'scorer': 'villa'})
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations
from typing import Callable, NamedTuple

import numpy as np

from .checks import instance_of, whole_number

__all__ = ["Scorer", "CATALOGUE", "make_scorer", "Box"]

Scorer = Callable[[np.ndarray], np.ndarray]


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


# ---- a box of the score card -----------------------------------------------------------------------

def box_label(name: str) -> str:
    """How a box's name reads to a player (the card, the advice tables, the play page): the name
    is what one types (`--used large_straight`), the label what one reads.

    >>> box_label("three_of_a_kind"), box_label("yatzy")
    ('Three of a kind', 'Yatzy')
    """
    return name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Box:
    """One box of the score card: its name, scorer, upper face (None for lower boxes) and the
    fixed value it takes as a joker (None: the normal scorer, e.g. the dice total)."""

    name: str
    scorer: Scorer = field(compare=False)
    face: int | None = None
    joker_value: int | None = None
    max_score: int = 0

    def __post_init__(self):
        instance_of("name", self.name, str, "a box name (text)")
        if not callable(self.scorer):
            raise TypeError(f"scorer must be a function of the rolls (make_scorer), got {type(self.scorer).__name__}")
        if self.face is not None:
            whole_number("face", self.face, 1)
        if self.joker_value is not None:
            whole_number("joker_value", self.joker_value)
        whole_number("max_score", self.max_score)

    @property
    def is_upper(self) -> bool:
        return self.face is not None

    @property
    def spec(self) -> dict | None:
        """The catalogue scorer and parameters of this box (None for a hand-made scorer)."""
        return getattr(self.scorer, "spec", None)
