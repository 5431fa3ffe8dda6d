"""The `Rules` value: a complete rule set as frozen data (boxes, bonuses, joker reading, dice),
checked when it is made, with the score tables the engines read derived from it.

Read and write it as a rule file with `rulefile.load` / `rulefile.dumps`; get a built-in one by
name with `rules.get_rules`.

>>> from .scoring import make_scorer, Box
>>> two = Rules("two", (Box("chance", make_scorer("chance"), max_score=12),), n_dice=2, upper_bonus=0)
>>> two.score_table.shape, int(two.score_table.max())
((21, 1), 12)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

import numpy as np

from .checks import control_character, instance_of, lone_surrogate, true_or_false, whole_number
from .dice import DiceSpace, dice_space
from .scoring import Box

MAX_BOXES = 20   # Maxi Yatzy's card; 2**20 box sets x upper totals is what fits in memory
DESCRIPTION_ALLOWS = "\n\t"   # a description may run over lines and hold tabs; a name holds neither

__all__ = ["Joker", "Rules", "MAX_BOXES"]

Joker = Literal["none", "forced", "free"]
JOKERS = ("none", "forced", "free")


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
        self._check_types()
        for key, allow in (("name", ""), ("description", DESCRIPTION_ALLOWS)):
            bad = control_character(getattr(self, key), allow) if isinstance(getattr(self, key), str) else None
            if bad is not None:   # printed in progress bars, summaries and logs
                raise ValueError(f"{key} holds a control character {bad!r} that would drive a terminal")
            if isinstance(getattr(self, key), str) and lone_surrogate(getattr(self, key)):
                raise ValueError(f"{key} holds a lone surrogate {lone_surrogate(getattr(self, key))!r}, "
                                 "not text any file or terminal can hold")
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

    def _check_types(self) -> None:
        """TypeError/ValueError naming the field whose value is of the wrong kind (a count given
        as text, a list of boxes): caught here, not as an AttributeError deep in a solve."""
        instance_of("name", self.name, str, "text")
        instance_of("description", self.description, str, "text")
        instance_of("boxes", self.boxes, tuple, "a tuple of Box")
        for box in self.boxes:
            instance_of("boxes", box, Box, "a tuple of Box")
        for key in ("n_dice", "faces", "rolls_per_turn", "upper_bonus_threshold", "upper_bonus", "yahtzee_bonus"):
            whole_number(key, getattr(self, key))     # the ranges: rule files' and variants' checks
        instance_of("yahtzee_box", self.yahtzee_box, str, "a box name", optional=True)
        if self.joker not in JOKERS:
            raise ValueError(f"joker must be one of {', '.join(JOKERS)}, got {self.joker!r}")
        true_or_false("forced_order", self.forced_order)
        true_or_false("saved_rolls", self.saved_rolls)

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
    def box_most(self) -> np.ndarray:
        """(n_boxes,) int64 most points each box can give one roll (normal or joker score)."""
        return np.maximum(self.score_table, self.joker_table).max(axis=0).astype(np.int64)

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
