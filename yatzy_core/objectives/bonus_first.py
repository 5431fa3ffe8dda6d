"""Upper bonus first: the best chance of the upper bonus, and of the ways equally likely, the best average.

"Should I still chase the bonus?" A player who wants the bonus above all plays for
P(upper total >= threshold on the full card) and, among choices equally likely to earn it
(within TIE: the bonus already decided, or a choice in a lower box that leaves the upper boxes
alone), for points. Its value is a pair V(s) = (P(bonus), M), chosen lexicographically
(`engine.choice.Lexicographic`): M is the mean of this very policy, not max-mean's, so the
tie-break is exact.

    V(full card) = ([upper >= threshold], 0)     V(s) = lex-best over choices of E[(P(next), points + M(next))]

Its backward operator is its own (`BonusFirstLanes`): per-state terminal values, a combine
that adds the scored points to the tie-break lane, the lexicographic choice rule. The state it
needs: the upper total counts only through the bonus (`StateSpace.representatives` is exact).

>>> from yatzy_core.game.rules import get_rules
>>> rules = get_rules("yahtzee-no-bonus").with_(name="ones-chance", boxes=(get_rules("yahtzee").boxes[0],
...     get_rules("yahtzee").boxes[-1]), upper_bonus=10, upper_bonus_threshold=3, yahtzee_box=None)
>>> t = bonus_table(rules, use_cache=False)
>>> round(t.start_value, 4), round(float(t.values[t.space.index(0, 0), 1]), 4)   # P(3 ones in 2 turns), the mean
(0.5838, 26.7892)
>>> p = 1 - (5 / 6) ** 3                     # a die shows a 1 within three rolls, kept
>>> turn = sum(comb(5, k) * p ** k * (1 - p) ** (5 - k) for k in (3, 4, 5))
>>> round(1 - (1 - turn) ** 2, 4)            # two tries: a miss goes in chance
0.5838
"""
from __future__ import annotations

import contextlib
import time
from math import comb  # noqa: F401 (the doctest)
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ..engine import turn as engine
from ..engine.choice import LEXICOGRAPHIC
from ..engine.cache import (CacheError, cache_path, cacheable, cached_for, layout_digest, read_trusted,
                            write_trusted)
from ..engine.solved import StateTable
from ..game.rules import Rules
from ..game.states import StateSpace
from .objective import AdviceObjective
from .registry import registered

if TYPE_CHECKING:     # the kernels load on a first solve, not when `import yatzy_core` registers this
    from ..engine.table_solver import Operator

__all__ = ["UpperBonus", "BonusFirstLanes", "BonusTable", "bonus_operator", "bonus_table", "cached_table",
           "table_seconds"]

FORMAT = 1
LATE_OPEN = 7   # open boxes at most for a position's own subgame table (a second or two), else the whole one
SECONDS_PER_STATE = 1e-5   # per distinct state (the solve's bar), the compiled pair kernel: yahtzee-no-bonus's
                           # 239,742 in 1.0-2.0 s (2 cores, loaded; benchmarks/lexicographic_table.py)
SECONDS_PER_JOKER_STATE = 4.2e-5   # with the Yahtzee bonus and jokers (states that choose alone): yahtzee's 359,612 in 15.1 s
READY_SECONDS = 60.0       # an uncached whole table longer than this is refused from an early position


def table_seconds(rules: Rules, within: int = 0) -> float:
    """Rough seconds of the table's solve (no first compilation): its distinct states, as the
    solve's bar counts them, times the measured rate.

    >>> from yatzy_core.game.rules import get_rules
    >>> round(table_seconds(get_rules("yahtzee-no-bonus")), 2), round(table_seconds(get_rules("yahtzee")), 1)
    (2.4, 15.1)
    """
    space = StateSpace(rules)
    distinct = sum(len(d) for _, d, _ in space.backward(space.n_boxes - 1, within))
    return distinct * (SECONDS_PER_JOKER_STATE if rules.tracks_yahtzee_bonus else SECONDS_PER_STATE)


@dataclass(frozen=True)
class BonusFirstLanes:
    """The table's terminal and combine: (P(bonus), points to come under this policy) per state.

    >>> BonusFirstLanes(63).combine(np.array([5 + 35]), np.array([[1.0, 20.0]])).tolist()   # box, bonus
    [[1.0, 60.0]]
    """

    threshold: int
    choice: ClassVar = LEXICOGRAPHIC

    def terminal(self, size: int) -> np.ndarray:
        return np.zeros((size, 2))

    def terminal_states(self, space: StateSpace) -> np.ndarray:
        """1 in the first lane where the full card's upper total reached the threshold."""
        out = self.terminal(space.size)
        out[:, 0] = space.decode(np.arange(space.size))[1] >= self.threshold
        return out

    def combine(self, points, later):
        out = np.array(later, dtype=np.float64)
        out[..., 1] += points
        return out



def bonus_operator(rules: Rules, compiled: bool = True) -> Operator:
    """Its backward operator for `table_solver.solve_table`: two lanes per state, every state
    stored, per-state terminal values, a lexicographic choice; compiled, its combine as data
    (the chance passes through: weight 1, shift 0; the tie-break lane gains the points),
    else run by the turn engine (the reference)."""
    from ..engine.table_solver import Operator
    return Operator(BonusFirstLanes(rules.upper_bonus_threshold),
                    widths=lambda space, states: np.full(len(states), 2, np.int64),
                    multiply=True, dense=True, per_state=True, compiled=compiled,
                    affine=lambda points: (np.ones(len(points)), np.zeros(len(points))))


@dataclass
class BonusTable(StateTable):
    """(P(bonus), mean of this policy) of every turn state, with the protocol of every solved
    table (`engine.solved`): `value(mask, upper, flag)` is P(bonus) from that state."""

    values: np.ndarray
    seconds: float = 0.0
    within: int = 0

    def value(self, mask: int, upper: int = 0, flag: int = 0) -> float:
        return float(self.values[self.space.index(mask, min(upper, self.rules.upper_cap), flag), 0])


def cached_table(rules: Rules) -> bool:
    """Whether a file of the rules' whole table is in the cache (trusted only when read)."""
    with contextlib.suppress(OSError):
        return cacheable(rules) and cache_path(rules, "bonus-first").exists()
    return False


def bonus_table(rules: Rules, use_cache: bool = True, progress: bool = False, within: int = 0) -> BonusTable:
    """The table of `rules` (`within`: only the states whose used boxes include it, never cached)."""
    space = StateSpace(rules)

    def solve():
        from ..engine.table_solver import solve_table
        start = time.perf_counter()
        solved = solve_table(space, bonus_operator(rules), within, progress=progress,
                             desc=f"upper bonus table {rules.name}")
        return BonusTable(rules, solved.data.reshape(space.size, 2), time.perf_counter() - start, within)
    if within:
        return solve()

    def load(path):
        fields = read_trusted(path, rules, FORMAT, layout_digest(space))
        if fields["numbers"].shape != (space.size * 2,):
            raise CacheError(f"{path} holds another size")
        return BonusTable(rules, fields["numbers"].reshape(space.size, 2), float(fields["seconds"]))

    def save(table, path):
        write_trusted(path, rules, table.values.reshape(-1), FORMAT, seconds=table.seconds,
                      layout=layout_digest(space))
    return cached_for(rules, "bonus-first", load, solve, save, use_cache)


@registered
@dataclass(frozen=True)
class UpperBonus(AdviceObjective):
    """The best chance of the upper bonus; ties (within TIE) by the best average of this policy."""

    key: ClassVar[str] = "bonus"
    title: ClassVar[str] = "upper bonus first"
    flag: ClassVar[str] = "--bonus-first"
    flag_help: ClassVar[str] = "{ranks} the chance of the upper bonus, then (ties) the mean"
    measure: ClassVar[str] = "probability"
    label: ClassVar[str] = "P(upper bonus)"
    words: ClassVar[str] = "upper bonus first"
    column: ClassVar[str] = "P(bonus)"
    policy: ClassVar[str] = "upper bonus first"

    def check(self, rules, whole_game=False):
        AdviceObjective.check(self, rules)
        if not rules.tracks_upper or rules.upper_bonus <= 0:
            raise ValueError(f"objective: {rules.name!r} has no upper bonus to play for")

    def aim(self):
        return "playing for the upper bonus first, then for points"

    def table(self, position, use_cache=True, progress=False):
        self.check(position.rules)
        if position.rules.n_boxes - len(position.used) <= LATE_OPEN:
            return bonus_table(position.rules, within=position.mask)
        return bonus_table(position.rules, use_cache, progress)

    def work(self, rules, position=None, use_cache=True, forward=False):
        if position is not None and rules.n_boxes - len(position.used) <= LATE_OPEN:
            return "", 0.0
        if use_cache and cached_table(rules):
            return ("playing its policy forward", 10.0) if forward else ("", 0.0)
        return f"solving the upper bonus table of {rules.name}", table_seconds(rules)

    def ready(self, position):
        rules = position.rules
        if rules.n_boxes - len(position.used) > LATE_OPEN and not cached_table(rules):
            seconds = table_seconds(rules)
            if seconds > READY_SECONDS:
                raise ValueError(f"from this early a position the chance of the bonus needs the whole table "
                                 f"(about {seconds / 60:.0f} min): run `yatzy distribution --rules {rules.name} "
                                 "--bonus-first` once, or fill more boxes")

    def whole_table(self, rules, use_cache=True, progress=False):
        return bonus_table(rules, use_cache, progress)

    def values(self, table):
        return table.values

    def lanes(self, table):
        return BonusFirstLanes(table.rules.upper_bonus_threshold)

    def pick(self, position):
        return lambda a: a[..., 0]

    def tie_break(self, turn, mean):
        """Its own tie-break lane: the mean of this policy (exact), not max-mean's."""
        lane = lambda a: a[..., 1]   # noqa: E731
        return engine.Turn(lane(turn.final), [lane(r) for r in turn.rolls], [lane(k) for k in turn.keepers],
                           lane(turn.start), None, None)

    def policy_tables(self, table):
        from .policy_play import policy_tables
        return policy_tables(table.space, table.values[:, 0], tie_break=table.values[:, 1])
