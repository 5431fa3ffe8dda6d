"""What a player plays for: the one place an objective is defined, and everything it knows how to do.

An objective is an object every caller asks (the advisor, the CLI, the explorer, the coach, the
grades), never a tag it switches on. Each one checks itself against the rules once (`check`),
names its table (`table`), values the choices of a position (`turn`: the turn engine's values
and how to read the objective's number from them), plays a whole game forward (`play`), gives
the final-score outlook from a position (`outlook`), and says how much work a call will be
(`work`). `MaxMean()` is the best average (the turn engine's own objective: its `lanes` are the engine's
sum); `AtLeast(total, points)` ranks by P(final total >= total) from a card holding `points`
(bonuses included); `Beat(score, points)` is `AtLeast(score + 1, points)`; `Risk(theta)` ranks by
the certainty equivalent under E[exp(theta * points)]. `objective_for` is the one place a name
("mean", "reach", "beat", "risk") becomes an objective. A new objective is a class here with
these methods, its engine combine (`engine.turn`) and, if its table is new, a table module.

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
from typing import Callable, ClassVar

import numpy as np

from ..engine import turn as engine
from ..engine.position import Position
from ..game.checks import instance_of, real_number, whole_number
from ..game.rules import Rules

__all__ = ["AdviceObjective", "MaxMean", "AtLeast", "Beat", "Risk", "MEAN", "MEASURES", "OBJECTIVES",
           "objective_for"]

MEASURES = ("expected", "probability", "certainty_equivalent")
OBJECTIVES = {"mean": "best average", "reach": "reach a total", "beat": "beat a score", "risk": "risk appetite"}
OUTLOOK_OPEN = 11   # a goal's pass from 11 open boxes: 1.8-5.8 s (benchmarks/outlook.py, Yatzy and Yahtzee), 6-13 s
                    # from seeded random cards with the whole table read; from 12: 6.6-16 s and 11-31 s (2 cores).
                    # A risk pass is never refused: 1-3 s from 10-13 open, 8.4 s a whole Yatzy game


class AdviceObjective:
    """What `advise` ranks the choices by, and what it knows how to do (see the module)."""

    measure: ClassVar[str] = "expected"      # what its values are (an `Advice` field): one of MEASURES
    label: ClassVar[str] = ""                # heads a column of its values (the explorer, the CLI)
    saved_rolls: ClassVar[bool] = False      # advised in games with saved rolls too

    def check(self, rules: Rules) -> None:
        """Refuse (ValueError naming the argument) rules this objective cannot be played in; returns
        nothing, so that neither the objective nor the rules can be taken for its result."""
        if rules.saved_rolls and not self.saved_rolls:
            raise ValueError(f"objective: a game with saved rolls ({rules.name!r}) is advised for the mean only")

    def table(self, position: Position, use_cache: bool = True, progress: bool = False):
        """The solved table that answers `position` (Solution, Targets or RiskTable)."""
        raise NotImplementedError

    def turn(self, position: Position, table=None, use_cache: bool = True,
             mean: engine.Turn | None = None) -> tuple[engine.Turn, Callable]:
        """The turn engine's values of `position`'s choices and `pick`, which reads this
        objective's number from them (`advice.ranking.choices`); `table` as `self.table` gives,
        `mean` the position's max-mean turn when the caller has it (the tie-breaker)."""
        table = self.table(position, use_cache) if table is None else table
        space = table.space
        final = engine.box_values(space, self.values(table), np.array([position.state(space)]), self.lanes(table))
        return engine.evaluate(space, final, choose=False), self.pick(position)

    def values(self, table):
        """What the turn engine reads from `table` as the next states' values."""
        raise NotImplementedError

    def lanes(self, table) -> engine.Objective:
        """The turn engine's combine: how points now and a next state's value make a value."""
        raise NotImplementedError

    def pick(self, position: Position) -> Callable:
        """This objective's number from the engine's values (a lane, or a scale)."""
        raise NotImplementedError

    def play(self, rules: Rules, use_cache: bool = True, progress: bool = False):
        """The exact results (`OptimalPlay`) of a whole game played for this objective."""
        raise NotImplementedError

    def outlook(self, position: Position, scored: int, use_cache: bool = True):
        """The final-score distribution from `position` with `scored` points on the card."""
        raise NotImplementedError

    def work(self, rules: Rules, position: Position | None = None, use_cache: bool = True,
             forward: bool = False) -> tuple[str, float]:
        """(what must be solved, rough seconds) before `table`/`play` answer: ("", 0) when quick."""
        return "", 0.0

    def ready(self, position: Position) -> None:
        """ValueError with the reason when `turn` would take more than about a second here."""

    def hopeless(self, position: Position) -> bool:
        """Whether every choice is worth nothing here (a goal out of reach): the mean decides."""
        return False

    words: ClassVar[str] = ""


@dataclass(frozen=True)
class MaxMean(AdviceObjective):
    """The best average: expected points still to come (also the turn engine's own sum)."""

    saved_rolls: ClassVar[bool] = True
    label: ClassVar[str] = "expected points still to come"
    words: ClassVar[str] = "best average"

    def table(self, position, use_cache=True, progress=False):
        from ..engine.solutions import solution_for
        return solution_for(position.rules, None, use_cache=use_cache, progress=progress)

    def values(self, table):
        return table.values

    def lanes(self, table):
        return engine.MEAN_LANES

    def pick(self, position):
        return lambda a: a

    def play(self, rules, use_cache=True, progress=False):
        from .distribution import optimal_play
        return optimal_play(rules, use_cache=use_cache, progress=progress)

    def outlook(self, position, scored, use_cache=True):
        from .midgame import position_distribution
        return position_distribution(position, self.table(position, use_cache), scored)


MEAN = MaxMean()


@dataclass(frozen=True)
class AtLeast(AdviceObjective):
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

    @property
    def words(self) -> str:
        return f"playing for {self.total}"

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

    def play(self, rules, use_cache=True, progress=False):
        """A whole game from the empty card played for `total` (the card's `points` are not used)."""
        from .policy_play import target_play
        from .targets import target_table
        return target_play(target_table(rules, self.total, use_cache=use_cache, progress=progress), self.total,
                           progress=progress)

    def outlook(self, position, scored, use_cache=True):
        from .midgame import target_position_distribution
        goal = AtLeast(self.total, scored)
        if goal.hopeless(position):
            return MEAN.outlook(position, scored, use_cache)
        if position.rules.n_boxes - len(position.used) > OUTLOOK_OPEN:
            raise ValueError(f"the distribution of {self.words} is computed with {OUTLOOK_OPEN} boxes open "
                             "or fewer (from earlier it takes up to minutes): fill more boxes")
        return target_position_distribution(position, goal.table(position, use_cache), self.total, scored)

    def work(self, rules, position=None, use_cache=True, forward=False):
        from .tables import target_work
        return target_work(rules, self.need if position is not None else self.total, position, use_cache, forward)

    def ready(self, position):
        from .tables import quick_targets
        if not quick_targets(position, self.need):
            raise ValueError(f"from this early a position the chance of {self.total} needs the whole target "
                             f"table: run `yatzy solve --rules {position.rules.name} --goal {self.total}` "
                             "once (about a minute, then cached), or fill more boxes")


@dataclass(frozen=True)
class Beat(AtLeast):
    """Finish above `score` (a tie does not win): reaching score + 1, written here only."""

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


@dataclass(frozen=True)
class Risk(AdviceObjective):
    """A risk appetite: theta < 0 cautious, > 0 bold (0 is the best average: use MaxMean). The
    range a rule set allows is checked against the rules (`check`, `risk.check_theta`)."""

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

    @property
    def words(self) -> str:
        return f"risk θ={self.theta:g}"

    def check(self, rules):
        from .risk import check_theta
        AdviceObjective.check(self, rules)
        check_theta(self.theta, rules)

    def table(self, position, use_cache=True, progress=False):
        from .tables import risk_table_for
        self.check(position.rules)
        return risk_table_for(position, self.theta, use_cache, progress)

    def turn(self, position, table=None, use_cache=True, mean=None):
        from .risk import RiskTable
        self.check(position.rules)
        instance_of("solution", table, RiskTable, "a RiskTable (risk_table) for this appetite", optional=True)
        if table is not None and (table.rules != position.rules or table.theta != self.theta):
            raise ValueError(f"the risk table is for {table.rules.name!r} and theta={table.theta:g}, "
                             f"not {position.rules.name!r} and theta={self.theta:g}")
        return AdviceObjective.turn(self, position, table, use_cache, mean)

    def values(self, table):
        return table.utilities

    def lanes(self, table):
        return engine.ExpUtility(self.theta)

    def pick(self, position):
        return engine.ExpUtility(self.theta).certainty

    def play(self, rules, use_cache=True, progress=False):
        from .policy_play import risk_play
        from .risk import risk_table
        self.check(rules)
        return risk_play(risk_table(rules, self.theta, use_cache=use_cache, progress=progress),
                         progress=progress)

    def outlook(self, position, scored, use_cache=True):
        from .midgame import risk_position_distribution
        return risk_position_distribution(position, self.table(position, use_cache), scored)

    def work(self, rules, position=None, use_cache=True, forward=False):
        from .tables import risk_work
        return risk_work(rules, self.theta, position, use_cache, forward)


def objective_for(kind: str, *, points: int | None = None, total: int | None = None, score: int | None = None,
                  theta: float | None = None) -> AdviceObjective:
    """The objective a name asks for ("mean", "reach" a `total`, "beat" a `score`, "risk" of
    appetite `theta`; `points` on the card for the goals), ValueError naming what is missing:
    the one place the CLI, the explorer and the coach turn a choice into an objective."""
    if kind == "mean":
        return MEAN
    if kind == "risk":
        if theta is None:
            raise ValueError("theta: give a risk appetite (< 0 cautious, > 0 bold)")
        return Risk(theta)
    if kind not in ("reach", "beat"):
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {kind!r}")
    if points is None:
        raise ValueError("enter the points so far (bonuses included) to play for a total")
    wanted = total if kind == "reach" else score
    if wanted is None:
        raise ValueError(f"enter the {'total to reach' if kind == 'reach' else 'score to beat'}")
    return AtLeast(total, points) if kind == "reach" else Beat(score, points)


def position_of(position) -> Position:
    """`position`, checked to be one: a public entry's first argument, named when it is not."""
    return instance_of("position", position, Position, "a Position (see Position.make)")
