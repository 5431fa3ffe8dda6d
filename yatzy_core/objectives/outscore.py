"""Playing to finish above an opponent whose card is known, before the endgame: an APPROXIMATION.

Exact two-player play (`two_player.py`) is out of reach for the full games before the endgame.
This objective answers instead: the opponent is taken to play for the best average from their
current card, so their points still to come, G, have the exact distribution of max-mean play
(`midgame.position_distribution`), independent of anything the mover does; the mover then
maximises P(own final > opponent's final) + 1/2 P(equal). It is the best reply to an opponent
who ignores the mover, not to one who plays to win: `outscore_loss.py` measures what it gives up
against exact play on the games solved exactly.

The table is a lanes table, the target table's machinery (`engine.table_solver`, target mode):
with K the most the opponent can still gain and c the mover's points minus the opponent's (the
lead, growing as the mover scores), lane n = K + 1 - c holds the value, so scoring p points moves
to lane n - p exactly as a target's "points still needed" does, lane n <= 0 is a sure win, and
the full card's lanes (`terminal`) are the opponent's CDF: V(full, n) = P(G < K + 1 - n) +
1/2 P(G = K + 1 - n).

>>> from yatzy_core.game.ruleset import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> game = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
>>> table = outscore_table(game, OpponentCard(), lead=-5, compiled=False)
>>> Fraction(table.value(0, 0, 0, lead=0)).limit_denominator(100)   # one die each: even
Fraction(1, 2)
>>> Fraction(table.value(0, 0, 0, lead=-5)).limit_denominator(100)  # 5 behind: a tie at best (6 against 1)
Fraction(1, 72)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar
from fractions import Fraction  # noqa: F401 (the doctest)

import numpy as np

from ..engine.turn import TargetLanes, box_values, evaluate
from ..game.checks import instance_of, whole_number
from ..game.rules import Rules
from ..game.states import StateSpace
from .objective import AdviceObjective
from .opponent_card import CARD_HELP, OpponentCard, lead_parameter
from .registry import Parameter, registered

if TYPE_CHECKING:     # the kernels load on a first solve, not when `import yatzy_core` registers this
    from ..engine.table_solver import Operator

__all__ = ["OutscoreLanes", "OutscoreTable", "opponent_final", "beat_chances", "outscore_operator",
           "outscore_table", "Outscore", "DENSE_BUDGET", "MEASURED_LOSS"]

DENSE_BUDGET = 2 * 1024 ** 3   # bytes a table may take: every state of the subgame times its lanes,
                               # in float64 (from about 7 boxes used on in the full games)
MEASURED_LOSS = ("on the 5-box games solved exactly it loses at most 0.0016 of P(win) + 1/2 P(tie) against "
                 "exact play (results/outscore_loss.json); on the full games it is not measured")   # checked
                                                                   # against that file by the tests


def opponent_final(rules: Rules, state: int, solution=None) -> np.ndarray:
    """P(G = g), g = 0 .. K: the opponent's points still to come under max-mean play from turn
    state `state` (exact: `midgame.position_distribution`)."""
    from ..engine.solutions import solution_for
    from .midgame import position_distribution
    solution = solution_for(rules, solution, progress=False)
    return position_distribution(int(state), solution, 0).probabilities


def beat_chances(final: np.ndarray, width: int) -> np.ndarray:
    """V(full card, n) for n = 0 .. width - 1: P(G < K + 1 - n) + 1/2 P(G = K + 1 - n).

    >>> beat_chances(np.array([0.5, 0.5]), 5)      # G: 0 or 1; K = 1
    array([1.  , 0.75, 0.25, 0.  , 0.  ])
    """
    k = len(final) - 1
    below = np.r_[0.0, np.cumsum(final)]               # below[x] = P(G < x), x = 0 .. K + 1
    x = k + 1 - np.arange(width)
    less = np.where(x > k, 1.0, below[np.clip(x, 0, k + 1)])
    equal = np.where((x >= 0) & (x <= k), final[np.clip(x, 0, k)], 0.0)
    return less + 0.5 * equal


@dataclass(frozen=True, eq=False)
class OutscoreLanes(TargetLanes):
    """`TargetLanes` (scoring p points reads lane n - p) whose full card holds `final` (lanes
    0 .. n_points - 1), not a certain lane 0 alone: the numpy reference path's objective."""

    final: np.ndarray = field(default_factory=lambda: np.ones(1))

    def terminal(self, size: int) -> np.ndarray:
        return np.tile(self.final, (size, 1))


def outscore_operator(rules: Rules, final: np.ndarray, width: int) -> Operator:
    """The table's operator: lanes n = 1 .. width - 1 stored for every state (dense: each state's
    lanes, the full card's the opponent's CDF), combined as a target's (n shifted by points)."""
    from ..engine.compiled.layout import tables
    from ..engine.table_solver import Operator
    from .targets import pad_points
    s, t = tables(rules)
    chances = beat_chances(final, width)
    return Operator(OutscoreLanes(width, final=chances), widths=lambda space, states: np.full(len(states), width - 1),
                    multiply=False, pad=pad_points(s, t), dense=True, terminal=chances[1:])


@dataclass
class OutscoreTable:
    """V(s, n) for every state of the subgame and n = 0 .. width - 1 (n = K + 1 - lead), against
    one opponent's final-score distribution `final`."""

    rules: Rules
    final: np.ndarray        # P(opponent's points still to come = g)
    values: np.ndarray       # (space.size, width): lane 0 is 1 (a sure win)
    space: StateSpace = field(init=False, repr=False)

    def __post_init__(self):
        self.space = StateSpace(self.rules)

    @property
    def width(self) -> int:
        return self.values.shape[1]

    def lane(self, lead) -> np.ndarray:
        """The lane of each lead (mover's points minus the opponent's), clipped to the table:
        lane 0 for a sure win; a lead too far behind for the table: ValueError."""
        n = len(self.final) - np.asarray(lead)
        if np.any(n >= self.width):
            raise ValueError(f"lead {np.min(lead)} is further behind than this table answers "
                             f"(its lanes reach a lead of {len(self.final) - self.width + 1})")
        return np.maximum(n, 0)

    def value(self, mask: int, upper: int = 0, flag: int = 0, lead: int = 0) -> float:
        """The best P(win) + 1/2 P(tie) under the approximation from the start of a turn."""
        state = self.space.index(mask, min(upper, self.rules.upper_cap), flag)
        return float(self.values[state, self.lane(lead)])


def outscore_table(rules: Rules, opponent: OpponentCard | int, lead: int | None = None, within: int = 0,
                   compiled: bool = True, solution=None, progress: bool = False) -> OutscoreTable:
    """The approximation's table against `opponent` (a card, or its turn state), for the states
    whose used boxes include `within`: lanes for every lead down to `lead` (None: every lead a
    game can have). compiled=False: the turn engine in numpy (the check on small games)."""
    from ..engine.table_solver import reference_table, solve_table
    from .targets import max_total, most_gain
    space = StateSpace(instance_of("rules", rules, Rules, "a Rules value (get_rules)"))
    state = opponent if isinstance(opponent, (int, np.integer)) else opponent.state(space)
    behind = max_total(rules) if lead is None else max(-whole_number("lead", lead, -max_total(rules) - 1), 0)
    subgame = np.count_nonzero(space.reachable & ((space.decode(np.arange(space.size))[0] & within) == within))
    _within_budget(subgame * (int(most_gain(space, [state])[0]) + 2 + behind) * 8)   # before the opponent's
    final = opponent_final(rules, state, solution)                                   # table is solved
    width = len(final) + 1 + behind            # lanes 0 .. K + 1 + behind
    _within_budget(subgame * width * 8)
    operator = outscore_operator(rules, final, width)
    if not compiled:
        return OutscoreTable(rules, final, reference_table(space, operator, within))
    solved = solve_table(space, operator, within, np.float64, progress, f"outscore table {rules.name}")
    values = np.concatenate([np.ones((space.size, 1)), solved.data.reshape(space.size, width - 1)], axis=1)
    return OutscoreTable(rules, final, values)


def _within_budget(size: int) -> None:
    if size > DENSE_BUDGET:
        raise ValueError(f"the outscore table here would take {size / 1e9:.1f} GB "
                         f"(more than {DENSE_BUDGET / 1e9:.1f}): fill more boxes first")


@registered
@dataclass(frozen=True)
class Outscore(AdviceObjective):
    """Finish above the opponent whose card is `opponent`, `lead` points ahead of them (their
    points so far subtracted from the mover's), the opponent taken to play for the best
    average: an approximation before the endgame (see the module)."""

    opponent: OpponentCard
    lead: int
    key: ClassVar[str] = "outscore"
    title: ClassVar[str] = "outscore an opponent (approximation)"
    parameters: ClassVar[tuple] = (
        Parameter("opponent", OpponentCard, "--outscore", "CARD",
                  "{ranks} the chance to finish above an opponent whose card is CARD (" + CARD_HELP + "), "
                  "who is taken to play for the best average (an approximation)",
                  "enter the opponent's card (--outscore)", parse=OpponentCard.parse),
        lead_parameter("--outscore-lead", "--outscore"))
    measure: ClassVar[str] = "probability"
    label: ClassVar[str] = "P(outscore), approximate"
    column: ClassVar[str] = "P(outscore)~"
    words: ClassVar[str] = "playing to outscore the opponent (approximation)"

    def __post_init__(self):
        if not isinstance(self.opponent, OpponentCard):
            raise ValueError(f"opponent must be an OpponentCard (OpponentCard.parse), got {self.opponent!r}")
        if isinstance(self.lead, bool) or not isinstance(self.lead, (int, np.integer)):
            raise ValueError(f"lead must be a whole number (negative when behind), got {self.lead!r}")

    def aim(self) -> str:
        return (f"playing to finish above the opponent ({self.lead:+d} points), an APPROXIMATION: the opponent is "
                f"taken to play for the best average; {MEASURED_LOSS}")

    def check(self, rules, whole_game=False):
        AdviceObjective.check(self, rules)
        self.opponent.check(rules)

    def decided_lead(self, position) -> int:
        """The lead, clamped to one below minus the most the mover can still score (a sure loss
        there and below, the values identical): no table as wide as a lead of thousands."""
        from .targets import most_gain
        space = StateSpace(position.rules)
        return max(self.lead, -int(most_gain(space, [position.state(space)])[0]) - 1)

    def table(self, position, use_cache=True, progress=False):
        self.check(position.rules)
        return outscore_table(position.rules, self.opponent, self.decided_lead(position), within=position.mask,
                              progress=progress)

    def turn(self, position, table=None, use_cache=True, mean=None):
        table = self.table(position, use_cache) if table is None else table
        lane, space = int(table.lane(self.decided_lead(position))), table.space
        final = box_values(space, table.values, np.array([position.state(space)]), self.lanes(table))
        return evaluate(space, final, choose=False), lambda a: a[..., lane]

    def values(self, table):
        return table.values

    def lanes(self, table):
        return TargetLanes(table.width)

    def play(self, rules, use_cache=True, progress=False):
        raise ValueError("objective outscore: its table depends on the opponent's card at each turn, so it has "
                         "no whole-game pass of one player; see benchmarks/outscore_loss.py for games against "
                         "an opponent")

    def outlook(self, position, scored, use_cache=True):
        raise ValueError("objective outscore: no final-score outlook (the approximation ranks choices only)")
