"""What a player plays for: the protocol every objective answers, and the best average.

An objective is an object every caller asks (the advisor, the CLI, the explorer, the coach, the
grades), never a tag it switches on. Each one checks itself against the rules once (`check`),
names its table (`table`), values the choices of a position (`turn`: the turn engine's values
and how to read the objective's number from them), plays a whole game forward (`play`), gives
the final-score outlook from a position (`outlook`), and says how much work a call will be
(`work`). `MaxMean()` is the best average (the turn engine's own objective: its `lanes` are the engine's
sum); the goals (`goals.AtLeast`, `goals.Beat`) rank by the chance of a final total;
`appetite.Risk(theta)` ranks by the certainty equivalent under E[exp(theta * points)]. Each class
is registered (`registry.registered`) with its key, title and parameters, and says what the CLI
prints for it (`aim`, `column`, `policy`, `summary`): `objective_for`, the CLI's flags and the
widgets' inputs come from the registry. A new objective is a class with these methods, its
engine combine (`engine.turn`) and, if its table is new, a table module.

>>> MEAN.measure, objective_for("mean") == MEAN
('expected', True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from ..engine import turn as engine
from ..engine.choice import choice_rule
from ..engine.position import Position
from ..game.checks import instance_of
from ..game.rules import Rules
from .registry import Parameter, objective_for, registered  # noqa: F401 (objective_for: the doctest)

__all__ = ["AdviceObjective", "MaxMean", "MEAN", "MEASURES", "OUTLOOK_OPEN", "position_of"]

MEASURES = ("expected", "probability", "certainty_equivalent")
OUTLOOK_OPEN = 11   # a goal's pass from 11 open boxes: 1.8-5.8 s (benchmarks/outlook.py, Yatzy and Yahtzee), 6-13 s
                    # from seeded random cards with the whole table read; from 12: 6.6-16 s and 11-31 s (2 cores).
                    # A risk pass is never refused: 1-3 s from 10-13 open, 8.4 s a whole Yatzy game


class AdviceObjective:
    """What `advise` ranks the choices by, and what it knows how to do (see the module)."""

    key: ClassVar[str]                       # its name in the registry (objective_for, the widgets' menus)
    title: ClassVar[str]                     # its entry in the "Play for" menus
    parameters: ClassVar[tuple[Parameter, ...]] = ()   # what it is made of (registry.Parameter)
    flag: ClassVar[str | None] = None        # the CLI flag that chooses one without parameters (no value)
    flag_help: ClassVar[str] = ""            # its help ("{ranks}": the command's verb)
    on_card: ClassVar[bool] = False          # takes the `points` on the card (bonuses included)
    measure: ClassVar[str] = "expected"      # what its values are (an `Advice` field): one of MEASURES
    label: ClassVar[str] = ""                # heads a column of its values (the explorer)
    saved_rolls: ClassVar[bool] = False      # advised in games with saved rolls too
    mean_play: ClassVar[bool] = False        # it is max-mean play (no tie-breaker turn, the optimal mean)
    outlook_open: ClassVar[int | None] = None   # the most boxes open its outlook is computed from (None: any)
    # The state it needs: every table solves one state for all upper totals that can no longer
    # reach the bonus (`StateSpace.representatives` stores them as 0). That is exact only while
    # an objective's future depends on the upper total through the bonus alone (the points are
    # counted as they are scored); one that values the upper total itself sets this and is refused
    # until a table of unmerged states serves it.
    upper_total_itself: ClassVar[bool] = False

    @classmethod
    def make(cls, points: int | None = None, **values) -> "AdviceObjective":
        """This objective from its parameters' `values` (and the card's `points` when `on_card`);
        ValueError saying what is missing (registry.objective_for calls it)."""
        names = [p.name for p in cls.parameters]
        extra = sorted(k for k, v in values.items() if k not in names and v is not None)
        if extra:
            raise ValueError(f"{cls.key} takes {', '.join(names) or 'no parameters'}, not {', '.join(extra)}")
        for p in cls.parameters:
            if values.get(p.name) is None:
                raise ValueError(p.missing)
        if cls.on_card and points is None:
            raise ValueError("enter the points so far (bonuses included) to play for a total")
        given = {p: values[p] for p in names}
        return cls(**given, points=points) if cls.on_card else cls(**given)

    def check(self, rules: Rules, whole_game: bool = False) -> None:
        """Refuse (ValueError naming the argument) rules this objective cannot be played in, a whole
        game of them when `whole_game`; returns nothing, so that neither the objective nor the
        rules can be taken for its result."""
        if rules.saved_rolls and not self.saved_rolls:
            raise ValueError(f"objective: a game with saved rolls ({rules.name!r}) is advised for the mean only")
        if self.upper_total_itself:
            raise ValueError(f"objective: {self.title} values the upper total itself, which the tables merge")

    def aim(self) -> str:
        """The sentence the CLI prints above a ranking for it ("" for the best average)."""
        return ""

    @property
    def column(self) -> str:
        """The head of the CLI's column of its values."""
        return self.label

    @property
    def policy(self) -> str:
        """Its whole-game policy's short name (`yatzy distribution`'s "policy")."""
        return self.key

    def summary(self, distribution) -> dict:
        """Its own figures of a whole game's final-score `distribution` ({} when none)."""
        return {}

    def summary_lines(self, figures: dict) -> list[str]:
        """The lines `yatzy distribution` prints for `summary`'s figures."""
        return []

    def at_least(self, default: int) -> int:
        """The total whose P(final >= total) the outlooks show for it (a goal's own, else `default`)."""
        return default

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
        lanes = self.lanes(table)
        final = engine.box_values(space, self.values(table), np.array([position.state(space)]), lanes)
        return engine.evaluate(space, final, choose=False, choice=choice_rule(lanes)), self.pick(position)

    def tie_break(self, turn: engine.Turn, mean: engine.Turn) -> engine.Turn:
        """The turn whose values order the choices equally good for this objective (within TIE):
        the position's max-mean turn `mean`, unless its own turn carries a tie-break lane."""
        return mean

    def values(self, table):
        """What the turn engine reads from `table` as the next states' values."""
        raise NotImplementedError

    def lanes(self, table) -> engine.Objective:
        """The turn engine's combine: how points now and a next state's value make a value."""
        raise NotImplementedError

    def pick(self, position: Position) -> Callable:
        """This objective's number from the engine's values (a lane, or a scale)."""
        raise NotImplementedError

    def whole_table(self, rules: Rules, use_cache: bool = True, progress: bool = False):
        """The table of a whole game of `rules` (what `play` plays from)."""
        raise NotImplementedError

    def policy_tables(self, table):
        """What the compiled whole-game policy reads for `table` (`policy_play.policy_tables`:
        primary values, weights, tie scale, tie-break values): data, never a mode."""
        raise NotImplementedError

    def lane_goal(self, table, scored: int = 0) -> int:
        """The points in all, counted from the `scored` points on the card, that the need lanes
        of its policy play for (`policy_play`'s goal: a target table's); 0 for a state lane's."""
        return 0

    def with_points(self, scored: int) -> "AdviceObjective":
        """This objective from a card holding `scored` points (a goal's need changes with them)."""
        return self

    def play(self, rules: Rules, use_cache: bool = True, progress: bool = False):
        """The exact results (`OptimalPlay`) of a whole game played for this objective: the
        compiled policy over `policy_tables` of `whole_table` (need lanes: for `lane_goal`)."""
        from .policy_play import policy_play
        self.check(rules, whole_game=True)
        table = self.whole_table(rules, use_cache, progress)
        return policy_play(table.space, self.policy_tables(table), self.lane_goal(table), progress=progress)

    def outlook(self, position: Position, scored: int, use_cache: bool = True):
        """The final-score distribution from `position` with `scored` points on the card: the rest
        of its turn by `turn` (ties by `tie_break`), later turns by the compiled policy; when
        every choice is hopeless (`hopeless`) the best average's; refused from more than
        `outlook_open` boxes open."""
        from .midgame import objective_position_distribution
        aim = self.with_points(scored)
        if aim.hopeless(position):
            return MEAN.outlook(position, scored, use_cache)
        if self.outlook_open is not None and position.rules.n_boxes - len(position.used) > self.outlook_open:
            raise ValueError(f"the distribution of {self.words} is computed with {self.outlook_open} boxes open "
                             "or fewer (from earlier it takes up to minutes): fill more boxes")
        return objective_position_distribution(position, aim, aim.table(position, use_cache), scored)

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


@registered
@dataclass(frozen=True)
class MaxMean(AdviceObjective):
    """The best average: expected points still to come (also the turn engine's own sum)."""

    key: ClassVar[str] = "mean"
    title: ClassVar[str] = "best average"
    saved_rolls: ClassVar[bool] = True
    mean_play: ClassVar[bool] = True
    label: ClassVar[str] = "expected points still to come"
    words: ClassVar[str] = "best average"
    column: ClassVar[str] = "E[to come]"
    policy: ClassVar[str] = "max-mean"

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
        """Its own pass, not the base class's: max-mean play's forward pass (`distribution`),
        one row per state and no tie-break turn, which every other pass is checked against."""
        from .distribution import optimal_play
        return optimal_play(rules, use_cache=use_cache, progress=progress)

    def outlook(self, position, scored, use_cache=True):
        from .midgame import position_distribution
        return position_distribution(position, self.table(position, use_cache), scored)


MEAN = MaxMean()


def position_of(position) -> Position:
    """`position`, checked to be one: a public entry's first argument, named when it is not."""
    return instance_of("position", position, Position, "a Position (see Position.make)")
