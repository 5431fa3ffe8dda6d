"""The goals: the chance of a final total. `AtLeast(total, points)` ranks by P(final total >=
total) from a card holding `points` (bonuses included); `Beat(score, points)` is
`AtLeast(score + 1, points)`. Their tables are the target tables (`objectives.tables`,
`objectives.targets`); their play and outlook are the base class's (`objective.AdviceObjective`).

>>> Beat(223, points=200).goal, Beat(223).label
(AtLeast(total=224, points=200), 'P(final > 223)')
>>> AtLeast(-1)
Traceback (most recent call last):
ValueError: total must be a whole number >= 0, got -1
>>> objective_for("beat", score=223, points=200) == Beat(223, 200)
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..engine import turn as engine
from ..engine.position import Position
from ..game.checks import instance_of, whole_number
from .objective import OUTLOOK_OPEN, AdviceObjective
from .registry import Input, Parameter, objective_for, registered  # noqa: F401 (objective_for: the doctest)

__all__ = ["AtLeast", "Beat"]


@registered
@dataclass(frozen=True)
class AtLeast(AdviceObjective):
    """Reach `total` or more, from a card holding `points` (bonuses included)."""

    total: int
    points: int = 0
    key: ClassVar[str] = "reach"
    title: ClassVar[str] = "reach a total"
    parameters: ClassVar[tuple] = (Parameter(
        "total", int, "--goal", "T", "{ranks} the chance to reach a final total of at least T",
        "enter the total to reach", 0, 2000, input=Input("goal", "Total", 0, 2000)),)
    on_card: ClassVar[bool] = True
    measure: ClassVar[str] = "probability"
    outlook_open: ClassVar[int] = OUTLOOK_OPEN

    def __post_init__(self):
        whole_number("total", self.total), whole_number("points", self.points)

    @property
    def goal(self) -> "AtLeast":
        return self

    @property
    def label(self) -> str:
        return f"P(final ≥ {self.total})"

    @property
    def words(self) -> str:
        return f"playing for {self.total}"

    def aim(self) -> str:
        return f"playing to reach a final total of at least {self.total} ({self.points} points on the card now)"

    @property
    def column(self) -> str:
        return f"P(>= {self.total})"

    @property
    def policy(self) -> str:
        return f"goal {self.total}"

    def check(self, rules, whole_game=False):
        from .targets import max_total
        AdviceObjective.check(self, rules)
        if whole_game and self.total > max_total(rules) + 1:
            raise ValueError(f"no game of {rules.name} reaches {self.total} points (at most {max_total(rules):,})")

    def summary(self, distribution):
        return {"goal": self.total, "p_goal": distribution.p_at_least(self.total)}

    def summary_lines(self, figures):
        return [f"P(total >= {figures['goal']}): {figures['p_goal']:.6f}"]

    def at_least(self, default):
        return self.total

    @property
    def need(self) -> int:
        """Points still needed from the card's `points`."""
        return max(self.total - self.points, 0)

    def hopeless(self, position: Position) -> bool:
        """More points needed than the card can still gain: every choice 0, the mean decides."""
        from .tables import out_of_reach
        return out_of_reach(position, self.need)

    def table(self, position, use_cache=True, progress=False):
        from .tables import targets_for
        return targets_for(position, self.need, use_cache, progress)

    def turn(self, position, table=None, use_cache=True, mean=None):
        from .targets import Targets
        instance_of("solution", table, Targets, "a target table (solve_targets or target_table) for this goal",
                    optional=True)
        if table is not None and table.rules != position.rules:
            raise ValueError(f"targets are for rules {table.rules.name!r}, the position for {position.rules.name!r}")
        position.points_so_far(self.points)
        if self.hopeless(position):
            if mean is None:
                from .midgame import mean_turn
                from ..game.states import StateSpace
                space = StateSpace(position.rules)
                mean = mean_turn(space, position.state(space), use_cache)
            return mean, lambda a: np.where(np.isfinite(a), 0.0, a)
        table = self.table(position, use_cache) if table is None else table
        if self.need > table.n_max:   # its last column is P(>= n_max), not P(>= need)
            raise ValueError(f"targets answer at most {table.n_max} points still needed, not {self.need}; "
                             f"pass a table solved to {self.need} or more, or none")
        return AdviceObjective.turn(self, position, table, use_cache, mean)

    def values(self, table):
        return table

    def lanes(self, table):
        return engine.TargetLanes(table.n_max + 1)

    def pick(self, position):
        need = self.need
        return lambda a: a[..., need]

    def whole_table(self, rules, use_cache=True, progress=False):
        """A whole game's table answers `total` from the empty card (the card's `points` are not used)."""
        from .targets import target_table
        return target_table(rules, self.total, use_cache=use_cache, progress=progress)

    def policy_tables(self, table):
        from .policy_play import policy_tables
        return policy_tables(table.space, targets=table)

    def lane_goal(self, table, scored=0):
        goal = self.total - scored
        if goal > table.n_max:
            raise ValueError(f"goal must be at most the table's n_max {table.n_max}, got {goal}")
        return goal

    def with_points(self, scored):
        return AtLeast(self.total, scored)

    def work(self, rules, position=None, use_cache=True, forward=False):
        from .tables import target_work
        return target_work(rules, self.need if position is not None else self.total, position, use_cache, forward)

    def ready(self, position):
        from .tables import quick_targets
        if not quick_targets(position, self.need):
            raise ValueError(f"from this early a position the chance of {self.total} needs the whole target "
                             f"table: run `yatzy solve --rules {position.rules.name} --goal {self.total}` "
                             "once (about a minute, then cached), or fill more boxes")


@registered
@dataclass(frozen=True)
class Beat(AtLeast):
    """Finish above `score` (a tie does not win): reaching score + 1, written here only."""

    key: ClassVar[str] = "beat"
    title: ClassVar[str] = "beat a score"
    parameters: ClassVar[tuple] = (Parameter(
        "score", int, "--beat", "S", "{ranks} the chance to beat S (a final total of S + 1 or more)",
        "enter the score to beat", 0, 1999, input=Input("goal", "Score to beat", 0, 2000)),)

    def __init__(self, score: int, points: int = 0):
        whole_number("score", score), whole_number("points", points)
        object.__setattr__(self, "total", score + 1)
        object.__setattr__(self, "points", points)

    def __repr__(self) -> str:
        return f"Beat(score={self.score}, points={self.points})"

    @property
    def score(self) -> int:
        return self.total - 1

    @property
    def goal(self) -> AtLeast:
        return AtLeast(self.total, self.points)

    @property
    def label(self) -> str:
        return f"P(final > {self.score})"

    @property
    def words(self) -> str:
        return f"playing to beat {self.score}"

    def aim(self) -> str:
        return f"playing to beat {self.score}: a final total of {self.total} or more ({self.points} points on the card now)"

    @property
    def column(self) -> str:
        return f"P(> {self.score})"

    @property
    def policy(self) -> str:
        return f"beat {self.score}"
