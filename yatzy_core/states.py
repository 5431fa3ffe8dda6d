"""Turn states: which boxes are used, the upper total capped at the bonus threshold, and whether
the Yahtzee box holds its 50 (only where the rules need it).

A state's index is ((mask * U) + upper) * F + flag with U = cap + 1 upper totals and F = 1 or 2
flags, so the value of every state fits in one flat float64 array.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np

from .rules import Rules


@dataclass(frozen=True)
class StateSpace:
    """Index arithmetic and reachability for the turn states of one rule set."""

    rules: Rules

    @property
    def n_boxes(self) -> int:
        return self.rules.n_boxes

    @property
    def n_upper(self) -> int:
        """U: number of distinct upper totals kept (0..cap)."""
        return self.rules.upper_cap + 1

    @property
    def n_flags(self) -> int:
        return 2 if self.rules.tracks_yahtzee_bonus else 1

    @property
    def size(self) -> int:
        return (1 << self.n_boxes) * self.n_upper * self.n_flags

    def index(self, mask, upper, flag=0):
        return (np.asarray(mask) * self.n_upper + upper) * self.n_flags + flag

    @cached_property
    def upper_bits(self) -> np.ndarray:
        return np.flatnonzero(self.rules.upper_faces)

    @cached_property
    def upper_reach(self) -> np.ndarray:
        """(2**n_boxes, U) bool: can the used upper boxes of this mask make this (capped) total?"""
        rules, cap = self.rules, self.rules.upper_cap
        n = 1 << self.n_boxes
        reach = np.zeros((n, self.n_upper), dtype=bool)
        reach[:, 0] = True
        if not rules.tracks_upper:
            return reach
        upper_mask = sum(1 << int(b) for b in self.upper_bits)
        # reachability depends only on the upper part of the mask: build it for those sub-masks
        sub = {0: np.eye(1, self.n_upper, 0, dtype=bool)[0]}
        for m in range(1, upper_mask + 1):
            if m & ~upper_mask:
                continue
            low = (m & -m).bit_length() - 1
            prev = sub[m & ~(1 << low)]
            face = int(rules.upper_faces[low])
            row = np.zeros(self.n_upper, dtype=bool)
            for c in range(rules.n_dice + 1):
                shifted = np.minimum(np.flatnonzero(prev) + face * c, cap)
                row[shifted] = True
            sub[m] = row
        masks = np.arange(n)
        for m, row in sub.items():
            reach[(masks & upper_mask) == m] = row
        return reach

    @cached_property
    def reachable(self) -> np.ndarray:
        """Flat bool array over all state indices."""
        reach = np.repeat(self.upper_reach[:, :, None], self.n_flags, axis=2)
        if self.n_flags == 2:
            masks = np.arange(1 << self.n_boxes)
            no_yahtzee = (masks >> self.rules.yahtzee_index) & 1 == 0
            reach[no_yahtzee, :, 1] = False
        return reach.reshape(-1)

    @cached_property
    def boxes_used(self) -> np.ndarray:
        """Number of used boxes of every mask (its popcount)."""
        masks = np.arange(1 << self.n_boxes)
        return ((masks[:, None] >> np.arange(self.n_boxes)) & 1).sum(axis=1)

    def layer(self, used: int) -> np.ndarray:
        """Reachable state indices with exactly `used` boxes used, ascending."""
        per_mask = self.reachable.reshape(1 << self.n_boxes, -1)
        rows = per_mask & (self.boxes_used == used)[:, None]
        return np.flatnonzero(rows.reshape(-1))

    def decode(self, index):
        """(mask, upper, flag) arrays of state indices."""
        index = np.asarray(index)
        flag = index % self.n_flags
        rest = index // self.n_flags
        return rest // self.n_upper, rest % self.n_upper, flag

    def counts(self) -> dict[str, int]:
        """Naive position count, all turn states, and the reachable ones."""
        rules = self.rules
        naive = rules.dice.n_rolls * (1 << self.n_boxes) * (rules.upper_cap + 1) * rules.rolls_per_turn
        return {
            "naive_positions": naive * self.n_flags,
            "turn_states": self.size,
            "reachable_turn_states": int(self.reachable.sum()),
        }


def layer_sizes(space: StateSpace) -> list[int]:
    """Reachable states per number of used boxes (0..n_boxes)."""
    return [len(space.layer(k)) for k in range(space.n_boxes + 1)]


def mask_count(n_boxes: int, used: int) -> int:
    return comb(n_boxes, used)
