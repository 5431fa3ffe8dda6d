"""Turn states: which boxes are used, the upper total capped at the bonus threshold, and whether
the Yahtzee box holds its 50 (only where the rules need it).

A state's index is ((mask * U) + upper) * F + flag with U = cap + 1 upper totals and F = 1 or 2
flags, so the value of every state fits in one flat float64 array.

>>> from yatzy_core.game.rules import get_rules
>>> space = StateSpace(get_rules("yahtzee"))
>>> space.n_upper, space.n_flags, space.size == 2 ** 13 * 64 * 2
(64, 2, True)
>>> i = space.index(0b101, 12, 1)
>>> int(i), [int(x) for x in space.decode(i)]   # ((5 * 64) + 12) * 2 + 1
(665, [5, 12, 1])
>>> layer_sizes(StateSpace(get_rules("yatzy")))[:4], mask_count(15, 2)
([1, 45, 756, 5932], 105)
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cached_property
from math import comb
from typing import ClassVar

import numpy as np

from .checks import instance_of
from .rules import Rules

__all__ = ["StateSpace", "layer_sizes", "mask_count", "memory_estimate"]

OVERHEAD = 14  # bytes a state beyond its tables (measured; see memory_estimate)


@dataclass(frozen=True, init=False)
class StateSpace:
    """Index arithmetic and reachability for the turn states of one rule set.

    One instance per rule set while any is in use: `StateSpace(rules)` returns the live one for
    equal rules, so its tables (reachability: seconds for the largest games) are built once, not
    by each of the many callers. It is never changed after it is made; its boolean tables are
    read-only arrays.

    >>> from yatzy_core.game.rules import get_rules
    >>> StateSpace(get_rules("yatzy")) is StateSpace(get_rules("yatzy"))
    True
    """

    rules: Rules
    _live: ClassVar["weakref.WeakValueDictionary[Rules, StateSpace]"] = weakref.WeakValueDictionary()

    def __new__(cls, rules: Rules) -> "StateSpace":
        instance_of("rules", rules, Rules, "a Rules value (get_rules(name) gives a built-in one)")
        try:
            return cls._live[rules]
        except KeyError:
            pass
        except TypeError:     # rules that cannot be hashed (a box holding a list): not shared
            return cls._made(rules)
        space = cls._live.setdefault(rules, cls._made(rules))
        return space

    @classmethod
    def _made(cls, rules: Rules) -> "StateSpace":
        space = super().__new__(cls)
        object.__setattr__(space, "rules", rules)
        return space

    def __reduce__(self):
        return StateSpace, (self.rules,)      # unpickled or copied: the live instance again

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
        return _read_only(reach)

    @cached_property
    def reachable(self) -> np.ndarray:
        """Flat bool array over all state indices."""
        reach = np.repeat(self.upper_reach[:, :, None], self.n_flags, axis=2)
        if self.n_flags == 2:
            masks = np.arange(1 << self.n_boxes)
            no_yahtzee = (masks >> self.rules.yahtzee_index) & 1 == 0
            reach[no_yahtzee, :, 1] = False
        if getattr(self.rules, "forced_order", False):   # boxes fill in card order: prefixes only
            masks = np.arange(1 << self.n_boxes)
            reach[(masks & (masks + 1)) != 0] = False
        return _read_only(reach.reshape(-1))

    @cached_property
    def boxes_used(self) -> np.ndarray:
        """Number of used boxes of every mask (its popcount)."""
        masks = np.arange(1 << self.n_boxes)
        return _read_only(((masks[:, None] >> np.arange(self.n_boxes)) & 1).sum(axis=1))

    def layer(self, used: int) -> np.ndarray:
        """Reachable state indices with exactly `used` boxes used, ascending."""
        return np.concatenate(list(self.layer_blocks(used, self.size)))

    def layer_blocks(self, used: int, max_states: int):
        """The same states in ascending blocks of whole box sets, about max_states each (so a
        large game's layer never has to be held at once)."""
        per_mask = self.reachable.reshape(1 << self.n_boxes, -1)
        masks = np.flatnonzero(self.boxes_used == used)
        per_set = max(1, max_states // per_mask.shape[1])
        for i in range(0, len(masks), per_set):
            block = masks[i:i + per_set]
            inside = np.flatnonzero(per_mask[block])
            yield block[inside // per_mask.shape[1]] * per_mask.shape[1] + inside % per_mask.shape[1]

    def backward(self, from_used: int, within: int = 0, block: int | None = None):
        """The order of every backward pass: the layers from `from_used` boxes used down to
        none, in blocks of whole box sets (about `block` states; default a layer at once), only
        states whose used boxes include `within`. Yields (states, the distinct ones among them,
        each state's representative): only the distinct ones need solving.

        >>> from yatzy_core.game.rules import get_rules
        >>> space = StateSpace(get_rules("yahtzee-no-bonus"))
        >>> [len(states) for states, _, _ in space.backward(1)]   # 13 boxes and their upper totals; the start
        [43, 1]
        >>> sum(len(d) for _, d, _ in space.backward(space.n_boxes)) == space.counts()["distinct_turn_states"]
        True
        """
        for used in range(from_used, -1, -1):
            for states in self.layer_blocks(used, block or self.size):
                if within:
                    states = states[(self.decode(states)[0] & within) == within]
                representatives = self.representatives(states)
                yield states, states[representatives == states], representatives

    def decode(self, index):
        """(mask, upper, flag) arrays of state indices."""
        index = np.asarray(index)
        flag = index % self.n_flags
        rest = index // self.n_flags
        return rest // self.n_upper, rest % self.n_upper, flag

    @cached_property
    def upper_room(self) -> np.ndarray:
        """(2**n_boxes,) most points the open upper boxes of each mask can still add."""
        masks = np.arange(1 << self.n_boxes)
        room = np.zeros(len(masks), dtype=np.int64)
        for b in self.upper_bits:
            room += np.where((masks >> b) & 1 == 0, int(self.rules.upper_faces[b]) * self.rules.n_dice, 0)
        return room

    def representatives(self, states) -> np.ndarray:
        """The state each state is solved as: states that cannot differ share one.

        The upper total only matters while the open upper boxes can still reach the bonus; when
        they cannot (or none is open, or it is reached) the future does not depend on it, and
        every such total is represented by 0 (reached: by the cap, as stored).

        >>> from yatzy_core.game.rules import get_rules
        >>> space = StateSpace(get_rules("yatzy"))
        >>> sixes_open = (1 << 15) - 1 - (1 << 5)        # only the sixes box is open
        >>> space.decode(space.representatives(space.index(sixes_open, [20, 33, 63])))[1].tolist()
        [0, 33, 63]
        """
        mask, upper, flag = self.decode(states)
        if self.rules.tracks_upper:
            dead = (upper < self.rules.upper_cap) & (upper + self.upper_room[mask] < self.rules.upper_bonus_threshold)
            upper = np.where(dead, 0, upper)
        return self.index(mask, upper, flag)

    def counts(self) -> dict[str, int]:
        """Naive position count, all turn states, the reachable ones and the distinct ones
        among those (what the solver actually solves)."""
        rules = self.rules
        naive = rules.dice.n_rolls * (1 << self.n_boxes) * (rules.upper_cap + 1) * rules.rolls_per_turn
        distinct = sum(int((self.representatives(block) == block).sum())
                       for k in range(self.n_boxes + 1) for block in self.layer_blocks(k, 1 << 20))
        return {
            "naive_positions": naive * self.n_flags,
            "turn_states": self.size,
            "reachable_turn_states": int(self.reachable.sum()),
            "distinct_turn_states": distinct,
        }


def _read_only(table: np.ndarray) -> np.ndarray:
    """`table`, no longer writable: a shared space's tables are everyone's."""
    table.setflags(write=False)
    return table


def layer_sizes(space: StateSpace) -> list[int]:
    """Reachable states per number of used boxes (0..n_boxes)."""
    instance_of("space", space, StateSpace, "a StateSpace (StateSpace(rules))")
    return [len(space.layer(k)) for k in range(space.n_boxes + 1)]


def mask_count(n_boxes: int, used: int) -> int:
    return comb(n_boxes, used)


def memory_estimate(space: StateSpace, moments: bool = False, itemsize: int = 8) -> int:
    """Bytes a solve of this state space needs at its peak, about, known before any table is
    built: each state's value (and second moment) of `itemsize` bytes, plus OVERHEAD bytes a
    state for the reachability masks (bool, with a temporary copy), the layer blocks and the
    reachable numbers copied out (twice) when the table is cached. Calibrated on maxi-yatzy
    (float64, solved and cached: peak RSS 1.91 GB, estimate 1.96 GB); an upper bound where
    fewer states are reachable (maxi-yatzy at 126 with a Yahtzee bonus: 4.05 GB, estimate 5.9).

    >>> from yatzy_core.game.rules import get_rules
    >>> maxi = StateSpace(get_rules("maxi-yatzy-no-saved-rolls"))
    >>> maxi.size, round(memory_estimate(maxi) / 1e9, 2)     # 2**20 box sets x 85 totals
    (89128960, 1.96)
    """
    return space.size * (itemsize * (2 if moments else 1) + OVERHEAD)
