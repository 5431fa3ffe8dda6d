"""Playing to finish above an opponent whose card is known, before the endgame: an APPROXIMATION.

Exact two-player play (`two_player.py`) is out of reach for the full games before the endgame.
This objective answers instead: the opponent is taken to play for the best average from their
current card, so their points still to come, G, have the exact distribution of max-mean play
(`midgame.position_distribution`), independent of anything the mover does; the mover then
maximises P(own final > opponent's final) + 1/2 P(equal). It is the best reply to an opponent
who ignores the mover, not to one who plays to win: `outscore_loss.py` measures what it gives up
against exact play on the games solved exactly.

The table is a lanes table, the target table's machinery (`engine.table_solver`, target mode,
stored as `targets.Targets` bands):
with K the most the opponent can still gain and c the mover's points minus the opponent's (the
lead, growing as the mover scores), lane n = K + 1 - c holds the value, so scoring p points moves
to lane n - p exactly as a target's "points still needed" does, lane n <= 0 is a sure win, and
the full card's lanes (`terminal`) are the opponent's CDF: V(full, n) = P(G < K + 1 - n) +
1/2 P(G = K + 1 - n). A state s that can still gain at most M(s) loses for sure behind by more
than M(s): its lanes above M(s) + K + 1 are exactly 0 and are not stored (`outscore_bands`), which
is what lets the table reach back to the first turn of the full games.

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

__all__ = ["OutscoreLanes", "OutscoreTable", "opponent_final", "beat_chances", "outscore_bands",
           "outscore_operator", "outscore_table", "table_bytes", "table_budget", "Outscore", "TABLE_BUDGET",
           "MEASURED_LOSS", "LANE_SECONDS", "OPPONENT_SECONDS", "FIXED_SECONDS", "READY_SECONDS"]

TABLE_BUDGET = 8 * 1024 ** 3   # the most bytes a table may take (its bands in float64), and never more than
                               # a third of the memory free where it runs (`table_budget`)
LANE_SECONDS = 1.0e-6          # wall seconds per stored value: results/outscore_reach.json measured 1.0 us
                               # (yahtzee, load 4) to 2.6 us (yatzy, load 10) on 2 shared cores, 0.67-0.78 CPU-us
OPPONENT_SECONDS = 3.0e-6      # per state of the opponent's subgame, their max-mean distribution (yatzy's
                               # 1.43e6 states in 2.7 s, yahtzee's 5.4e5 in 1.5 s at load 3)
FIXED_SECONDS = 2.0            # layout and the turn: yahtzee-no-bonus, 6 used, 1.25e5 values in 2.4 s
READY_SECONDS = 30.0           # the most a widget's click may wait for the table (else: refused, with the command)
MEASURED_LOSS = ("on the 5-box games solved exactly it loses at most 0.0016 of "
                 "P(win) + 1/2 P(tie) against exact play (results/outscore_loss.json); on the full games it is "
                 "not measured")   # checked
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


def outscore_bands(most_opponent: int, width: int):
    """The lanes (1 .. band) each state stores: V(s, n) = 0 above M(s) + K + 1 (behind by more
    than the most the state can still gain, M(s), the mover loses whatever the opponent's K
    points do), and no lane past the table's width.

    >>> from yatzy_core.game.rules import get_rules
    >>> yatzy = get_rules("yatzy")
    >>> space, full = StateSpace(yatzy), (1 << 15) - 1
    >>> chance_open = full - (1 << yatzy.box_index("chance"))          # at most 30 more (K = 374)
    >>> outscore_bands(374, 800)(space, [space.index(full, 63), space.index(chance_open, 63)]).tolist()
    [375, 405]
    """
    from .targets import most_gain
    return lambda space, states: np.minimum(most_gain(space, states) + most_opponent + 1, width - 1)


def outscore_operator(rules: Rules, final: np.ndarray, width: int, dense: bool = False) -> Operator:
    """The table's operator: lanes n = 1 .. band of each state (`outscore_bands`; dense: all
    width - 1 of them for every state), the full card's the opponent's CDF, combined as a
    target's (n shifted by the points)."""
    from ..engine.compiled.layout import tables
    from ..engine.table_solver import Operator
    from .targets import pad_points
    s, t = tables(rules)
    chances = beat_chances(final, width)
    widths = (lambda space, states: np.full(len(states), width - 1)) if dense else outscore_bands(len(final) - 1, width)
    return Operator(OutscoreLanes(width, final=chances), widths=widths, multiply=False, pad=pad_points(s, t),
                    dense=dense, terminal=chances[1:])


@dataclass
class OutscoreTable:
    """V(s, n) for every state of the subgame and n = 0 .. width - 1 (n = K + 1 - lead), against
    one opponent's final-score distribution `final`."""

    rules: Rules
    final: np.ndarray        # P(opponent's points still to come = g)
    values: object           # indexed by states: (..., width), lane 0 is 1 (a sure win); the compiled
                             # path's bands (`targets.Targets`), the reference's dense array
    space: StateSpace = field(init=False, repr=False)

    def __post_init__(self):
        self.space = StateSpace(self.rules)

    @property
    def width(self) -> int:
        return self.values.shape[1]

    @property
    def nbytes(self) -> int:
        return int(self.values.nbytes)

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
        return float(self.values[np.array([state])][0, self.lane(lead)])


def outscore_table(rules: Rules, opponent: OpponentCard | int, lead: int | None = None, within: int = 0,
                   compiled: bool = True, solution=None, progress: bool = False, dense: bool = False) -> OutscoreTable:
    """The approximation's table against `opponent` (a card, or its turn state), for the states
    whose used boxes include `within`: lanes for every lead down to `lead` (None: every lead a
    game can have); refused above `TABLE_BUDGET`, before anything is solved. compiled=False: the
    turn engine in numpy (dense; the check on small games); dense=True: every state all its lanes
    (the banded table's check)."""
    from ..engine.table_solver import reference_table, solve_table
    from .targets import Targets
    space = StateSpace(instance_of("rules", rules, Rules, "a Rules value (get_rules)"))
    state = opponent if isinstance(opponent, (int, np.integer)) else opponent.state(space)
    _within_budget(table_bytes(space, state, lead, within, dense or not compiled))   # before the opponent's
    final = opponent_final(rules, state, solution)                                      # table is solved
    width = _width(rules, len(final) - 1, lead)
    operator = outscore_operator(rules, final, width, dense or not compiled)
    if not compiled:
        return OutscoreTable(rules, final, reference_table(space, operator, within))
    solved = solve_table(space, operator, within, np.float64, progress, f"outscore table {rules.name}")
    return OutscoreTable(rules, final, Targets(rules, width - 1, solved.band, solved.offset, solved.data,
                                               solved.seconds))


def _width(rules: Rules, most_opponent: int, lead: int | None) -> int:
    """Lanes 0 .. K + 1 - lead: the lead only grows as the mover scores, so no lane above the
    asked one is read (lead None: every lead a game can have)."""
    from .targets import max_total
    lead = -max_total(rules) if lead is None else whole_number("lead", lead, -max_total(rules) - 1)
    return max(most_opponent + 2 - lead, 2)


def table_bytes(space: StateSpace, opponent_state: int, lead: int | None, within: int = 0, dense: bool = False) -> int:
    """At most what `outscore_table` stores (float64), from the opponent's most gain (its K, or
    above): the bands of the subgame's distinct states (dense: every state all its lanes)."""
    from ..engine.table_solver import table_layout
    from .targets import most_gain
    k = int(most_gain(space, [opponent_state])[0])
    width = _width(space.rules, k, lead)
    if dense:
        return space.size * (width - 1) * 8
    operator = outscore_operator(space.rules, np.ones(k + 1), width)
    return table_layout(space, operator, list(space.backward(space.n_boxes, within)))[2] * 8


def table_budget() -> int:
    """The most bytes a table may take here: `TABLE_BUDGET`, or a third of the free memory (its
    solve holds about as much again beside it) where that is less — a laptop refuses in one line
    rather than swapping for minutes."""
    from .versus_plan import machine_memory
    return min(TABLE_BUDGET, machine_memory() // 3)


def _within_budget(size: int) -> None:
    budget = table_budget()
    if size > budget:
        raise ValueError(f"the outscore table here would take {size / 1e9:.1f} GB "
                         f"(more than {budget / 1e9:.1f} here): fill more boxes first")


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
        there and below) and to one above the most the opponent can still score (a sure win there
        and above), the values identical: no table as wide as a lead of thousands, and a lead of
        10**30 a sure win rather than an overflow."""
        from .targets import most_gain
        space = StateSpace(position.rules)
        mover, opponent = (int(most_gain(space, [state])[0]) for state in
                           (position.state(space), self.opponent.state(space)))
        return min(max(int(self.lead), -mover - 1), opponent + 1)

    def table(self, position, use_cache=True, progress=False):
        self.check(position.rules)
        return outscore_table(position.rules, self.opponent, self.decided_lead(position), within=position.mask,
                              progress=progress)

    def hopeless(self, position) -> bool:
        """Behind by more than the most the mover can still score: a sure loss whatever is chosen
        (no table: the mean orders the choices, as a goal out of reach does)."""
        from .targets import most_gain
        space = StateSpace(position.rules)
        return self.lead < -int(most_gain(space, [position.state(space)])[0])

    def sure_win(self, position) -> bool:
        """Ahead by more than the most the opponent can still score: a sure win whatever is chosen
        (no table either: every choice is worth 1 and the mean orders them)."""
        from .targets import most_gain
        space = StateSpace(position.rules)
        return self.lead > int(most_gain(space, [self.opponent.state(space)])[0])

    def work(self, rules, position=None, use_cache=True, forward=False):
        """The table's build when it takes more than a few seconds: its values and rough time
        (the opponent's distribution, then the table, at the loaded rate of the measurements)."""
        if position is None or self.hopeless(position) or self.sure_win(position):
            return "", 0.0
        values = self.table_lanes(position)
        seconds = FIXED_SECONDS + self.opponent_states(position) * OPPONENT_SECONDS + values * LANE_SECONDS
        if seconds < 5:
            return "", 0.0
        return (f"solving the outscore table of {rules.name} against this card ({values:.3g} values, "
                f"{values * 8 / 1e9:.1f} GB; not cached)", seconds)

    def opponent_states(self, position) -> int:
        """The states of the opponent's subgame: their distribution's forward pass visits them."""
        space, mask = StateSpace(position.rules), self.opponent.mask(position.rules)
        return int(np.count_nonzero(space.reachable & ((space.decode(np.arange(space.size))[0] & mask) == mask)))

    def table_lanes(self, position) -> int:
        """The lanes the position's table stores (`table_bytes` / 8); ValueError above the budget."""
        self.check(position.rules)
        space = StateSpace(position.rules)
        size = table_bytes(space, self.opponent.state(space), self.decided_lead(position), position.mask)
        _within_budget(size)
        return size // 8

    def ready(self, position):
        """A click never starts a build of minutes: from early positions the table is built by the command."""
        what, seconds = self.work(position.rules, position)
        if seconds > READY_SECONDS:
            raise ValueError(f"outscore: from this early a position the approximation is {what[8:]}, about "
                             f"{max(1, round(seconds / 60))} min: ask `yatzy advise --rules {position.rules.name} "
                             "... --outscore CARD` or `yatzy versus advise` (with a progress bar), or fill more boxes")

    def turn(self, position, table=None, use_cache=True, mean=None):
        if self.hopeless(position) or self.sure_win(position):
            from .midgame import mean_turn
            space = StateSpace(position.rules)
            mean = mean_turn(space, position.state(space), use_cache) if mean is None else mean
            certain = 0.0 if self.lead < 0 else 1.0            # a sure loss is behind, a sure win ahead
            return mean, lambda a: np.where(np.isfinite(a), certain, a)
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

    no_outlook: ClassVar[str] = "objective outscore: no final-score outlook (the approximation ranks choices only)"

    def outlook(self, position, scored, use_cache=True):
        raise ValueError(self.no_outlook)
