"""What `advise` ranks the choices by: the one place an advice objective is defined.

`MaxMean()` is the turn engine's own objective (expected points still to come). The goals need
the points already on the card (bonuses included): `AtLeast(total, points)` ranks by P(final
total >= total), `Beat(score, points)` is `AtLeast(score + 1, points)`, and `Risk(theta)` ranks
by the certainty equivalent under E[exp(theta * points)]. Each says which `measure` its values
are (an `Advice` field) and carries a `label` to head a column.

>>> Beat(223, points=200).goal, Beat(223).label
(AtLeast(total=224, points=200), 'P(final > 223)')
>>> AtLeast(-1)
Traceback (most recent call last):
ValueError: total must be a whole number >= 0, got -1
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union

from ..engine.turn import MEAN, MaxMean
from ..game.checks import real_number, whole_number

__all__ = ["MaxMean", "AtLeast", "Beat", "Risk", "AdviceObjective", "MEAN", "MEASURES"]

MEASURES = ("expected", "probability", "certainty_equivalent")


@dataclass(frozen=True)
class AtLeast:
    """Reach `total` or more, from a card holding `points` (bonuses included)."""

    total: int
    points: int = 0
    measure: ClassVar[str] = "probability"

    def __post_init__(self):
        whole_number("total", self.total), whole_number("points", self.points)

    @property
    def goal(self) -> "AtLeast":
        return self

    @property
    def label(self) -> str:
        return f"P(final ≥ {self.total})"


@dataclass(frozen=True)
class Beat:
    """Finish above `score` (a tie does not win): reaching score + 1, written here only."""

    score: int
    points: int = 0
    measure: ClassVar[str] = "probability"

    def __post_init__(self):
        whole_number("score", self.score), whole_number("points", self.points)

    @property
    def goal(self) -> AtLeast:
        return AtLeast(self.score + 1, self.points)

    @property
    def label(self) -> str:
        return f"P(final > {self.score})"


@dataclass(frozen=True)
class Risk:
    """A risk appetite: theta < 0 cautious, > 0 bold (0 is the best average: use MaxMean). The
    range a rule set allows is checked when advising (`targets.check_theta`)."""

    theta: float
    measure: ClassVar[str] = "certainty_equivalent"
    label: ClassVar[str] = "certainty equivalent"

    def __post_init__(self):
        try:
            theta = real_number("theta", self.theta)
        except ValueError:
            theta = 0.0
        if theta == 0:
            raise ValueError(f"theta must be a finite number other than 0 (0 is MaxMean), got {self.theta!r}")
        object.__setattr__(self, "theta", theta)   # numpy numbers too, as check_theta takes them


AdviceObjective = Union[MaxMean, AtLeast, Beat, Risk]   # what advise ranks by (not turn.Objective)
