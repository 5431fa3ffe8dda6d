"""The one result protocol of every solved table: what a caller may ask of any of them.

`Solution` (expected points), `SavedSolution` (the same with saved rolls), `targets.Targets`
(P(at least n more points), one number per n) and `risk.RiskTable` (a certainty
equivalent, in points) each have `rules`, `space`, `value(mask, upper, flag)` (the value at the
start of a turn in that state, in the table's own measure), `start_value` (from the empty card)
and `seconds` (how long the solve took). `StateTable` is the few lines a table of one entry per
turn state shares (`bonus_first.BonusTable`, `risk.RiskTable`): its space, and its start value as
its value at the empty card.

>>> from yatzy_core import get_rules, solve
>>> isinstance(solve(get_rules("yahtzee-no-bonus").with_(name="chance-only",
...            boxes=get_rules("yahtzee-no-bonus").boxes[-1:], upper_bonus=0, yahtzee_box=None), progress=False),
...            SolvedTable)
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..game.rules import Rules
from ..game.states import StateSpace

__all__ = ["SolvedTable", "StateTable"]


@runtime_checkable
class SolvedTable(Protocol):
    """What every solved table answers (see the module)."""

    rules: Any
    space: Any
    seconds: float

    def value(self, mask: int, upper: int = 0, flag: int = 0) -> Any: ...

    @property
    def start_value(self) -> Any: ...


@dataclass
class StateTable:
    """A base for a solved table with an entry per turn state of `rules`: its `space`, and
    `start_value` as its `value` at the empty card. A subclass adds its numbers and `value`,
    and calls this `__post_init__` from its own."""

    rules: Rules
    space: StateSpace = field(init=False, repr=False)

    def __post_init__(self):
        self.space = StateSpace(self.rules)

    @property
    def start_value(self) -> Any:
        """The table's value of a whole game, from the empty card."""
        return self.value(0)
