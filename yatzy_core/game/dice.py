"""Dice as sorted multisets: rolls, keepers and the exact chance of each roll given a keeper.

A roll of n dice is a multiset, stored as its counts per face (a length-`faces` vector).
Order never matters for scoring, so 5 dice have C(10, 5) = 252 rolls instead of 6**5 = 7776,
and the 0..5 dice a player may keep form 462 keepers.

>>> space = dice_space(5)
>>> space.n_rolls, space.n_keepers, space.n_pairs
(252, 462, 4368)
>>> space.p_exact(space.keeper_index[(0, 0, 0, 0, 0, 4)], space.roll_index[(0, 0, 0, 0, 0, 5)])
Fraction(1, 6)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np

__all__ = ["Counts", "counts_of", "dice_of", "multisets", "arrangements", "DiceSpace", "dice_space"]

Counts = tuple[int, ...]  # dice per face: (ones, twos, ..., sixes)


def _listed(values, name: str) -> list:
    """`values` as a list; TypeError naming the argument when it is not a sequence."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{name} must be a sequence of whole numbers, got {type(values).__name__}")
    return list(values)


def counts_of(dice, faces: int = 6) -> Counts:
    """Counts per face of a list of dice such as [1, 1, 3, 6, 6]."""
    counts = [0] * faces
    for d in _listed(dice, "dice"):
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 1 <= d <= faces:
            raise ValueError(f"dice must be whole numbers 1..{faces}, got {d!r}")
        counts[d - 1] += 1
    return tuple(counts)


def dice_of(counts) -> tuple[int, ...]:
    """The sorted dice of a count vector: (0, 2, 0, 0, 0, 1) -> (2, 2, 6)."""
    if any(isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0
           for c in _listed(counts, "counts")):
        raise ValueError(f"counts must be whole numbers >= 0, got {list(counts)[:12]}")
    return tuple(face for face, c in enumerate(counts, start=1) for _ in range(int(c)))


def multisets(n: int, faces: int = 6) -> list[Counts]:
    """All count vectors of n dice, in lexicographic order of their sorted dice."""
    return [counts_of(dice, faces) for dice in combinations_with_replacement(range(1, faces + 1), n)]


def arrangements(counts) -> int:
    """Number of ordered rolls that give this multiset: n! / prod(c!)."""
    return factorial(sum(counts)) // prod(factorial(c) for c in counts)


@dataclass(frozen=True)
class DiceSpace:
    """Every roll and keeper of `n_dice` dice with `faces` faces, with index maps both ways.

    Keepers are ordered by size (0 dice first); keepers of `n_dice` dice are exactly the rolls,
    in the same order, so roll r is keeper `roll_offset + r`.
    """

    n_dice: int = 5
    faces: int = 6
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def keepers(self) -> np.ndarray:
        """(n_keepers, faces) counts of every keeper, smallest first."""
        rows = [c for n in range(self.n_dice + 1) for c in multisets(n, self.faces)]
        return np.array(rows, dtype=np.int64)

    @cached_property
    def keeper_size(self) -> np.ndarray:
        return self.keepers.sum(axis=1)

    @cached_property
    def roll_offset(self) -> int:
        return int(np.searchsorted(self.keeper_size, self.n_dice))

    @cached_property
    def rolls(self) -> np.ndarray:
        """(n_rolls, faces) counts of every roll of all the dice."""
        return self.keepers[self.roll_offset:]

    @property
    def n_rolls(self) -> int:
        return len(self.rolls)

    @property
    def n_keepers(self) -> int:
        return len(self.keepers)

    @cached_property
    def keeper_index(self) -> dict[Counts, int]:
        return {tuple(int(x) for x in k): i for i, k in enumerate(self.keepers)}

    @cached_property
    def roll_index(self) -> dict[Counts, int]:
        return {tuple(int(x) for x in r): i for i, r in enumerate(self.rolls)}

    @cached_property
    def level_slices(self) -> list[slice]:
        """Keeper index range of each keeper size 0..n_dice."""
        edges = np.searchsorted(self.keeper_size, np.arange(self.n_dice + 2))
        return [slice(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:])]

    @cached_property
    def add_die(self) -> np.ndarray:
        """add_die[k, f] = keeper index of keeper k plus one die showing face f+1 (-1 if k is full)."""
        table = np.full((self.n_keepers, self.faces), -1, dtype=np.int64)
        for i, k in enumerate(self.keepers):
            if k.sum() < self.n_dice:
                for f in range(self.faces):
                    bigger = k.copy()
                    bigger[f] += 1
                    table[i, f] = self.keeper_index[tuple(int(x) for x in bigger)]
        return table

    @cached_property
    def remove_die(self) -> np.ndarray:
        """remove_die[k, j] = keeper k without its j-th die (sorted order); repeats pad short rows."""
        table = np.zeros((self.n_keepers, max(self.n_dice, 1)), dtype=np.int64)
        for i, k in enumerate(self.keepers):
            dice = dice_of(k)
            if not dice:
                continue
            for j in range(table.shape[1]):
                smaller = k.copy()
                smaller[dice[min(j, len(dice) - 1)] - 1] -= 1
                table[i, j] = self.keeper_index[tuple(int(x) for x in smaller)]
        return table

    @cached_property
    def pairs(self) -> np.ndarray:
        """(n_pairs, 2) array of (keeper, roll) with keeper a sub-multiset of roll."""
        inside = np.all(self.keepers[:, None, :] <= self.rolls[None, :, :], axis=2)
        return np.argwhere(inside)

    @cached_property
    def preferred_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Sub-keepers of every roll in order of preference among equally good ones (most dice,
        then keeper order), as one flat keeper array and the start of each roll's run.

        This is the tie rule (engine/turn_forward.py) that makes the spread of optimal play well defined.
        """
        k, r = self.pairs[:, 0], self.pairs[:, 1]
        order = np.lexsort((k, -self.keeper_size[k], r))
        starts = np.searchsorted(r[order], np.arange(self.n_rolls + 1))
        return np.ascontiguousarray(k[order]), starts.astype(np.int64)

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)

    def p_exact(self, keeper: int, roll: int) -> Fraction:
        """P(roll | keeper): the chance that rerolling the other dice gives exactly `roll`."""
        rest = self.rolls[roll] - self.keepers[keeper]
        if (rest < 0).any():
            return Fraction(0)
        free = self.n_dice - int(self.keeper_size[keeper])
        return Fraction(arrangements(rest), self.faces ** free)

    @cached_property
    def transition(self) -> np.ndarray:
        """(n_keepers, n_rolls) float64 array of P(roll | keeper); each row sums to 1."""
        table = np.zeros((self.n_keepers, self.n_rolls))
        for k, r in self.pairs:
            table[k, r] = float(self.p_exact(k, r))
        return table

    def roll_probabilities(self) -> np.ndarray:
        """P(roll) for a roll of all the dice: the transition row of the empty keeper."""
        return self.transition[0]

    def validate(self, dice) -> Counts:
        """Counts of a complete roll given as dice values; ValueError naming what is wrong."""
        dice = _listed(dice, "dice")
        if len(dice) != self.n_dice:
            raise ValueError(f"expected {self.n_dice} {'die' if self.n_dice == 1 else 'dice'}, got {len(dice)}: {dice}")
        bad = [d for d in dice if isinstance(d, bool) or not isinstance(d, (int, np.integer))
               or not 1 <= d <= self.faces]
        if bad:
            raise ValueError(f"dice must be whole numbers 1..{self.faces}, got {bad} in {dice}")
        return counts_of(dice, self.faces)


@lru_cache(maxsize=None)
def dice_space(n_dice: int = 5, faces: int = 6) -> DiceSpace:
    """The shared DiceSpace for n_dice dice (1..6) with `faces` faces."""
    for name, v in (("n_dice", n_dice), ("faces", faces)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be a whole number, got {v!r}")
    if not 1 <= n_dice <= 6:
        raise ValueError(f"n_dice must be 1..6, got {n_dice}")
    if not 2 <= faces <= 12:
        raise ValueError(f"faces must be 2..12, got {faces}")
    return DiceSpace(n_dice, faces)
