"""A risk appetite: the objective that ranks by the certainty equivalent under E[exp(theta * points)].

`Risk(theta)` is cautious for theta < 0 and bold for theta > 0; its table is `risk.RiskTable`,
its combine `engine.turn.ExpUtility`. Registered as "risk" (`registry`).

>>> Risk(-0.02).policy, Risk(0.05).aim()
('risk theta=-0.02', 'playing for the certainty equivalent of E[exp(0.05 * points)] (bold)')
>>> Risk(0)
Traceback (most recent call last):
ValueError: theta must be a finite number other than 0 (0 is MaxMean), got 0
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..engine import turn as engine
from ..game.checks import instance_of, real_number
from .objective import AdviceObjective
from .registry import Input, Parameter, registered

__all__ = ["Risk"]


@registered
@dataclass(frozen=True)
class Risk(AdviceObjective):
    """A risk appetite: theta < 0 cautious, > 0 bold (0 is the best average: use MaxMean). The
    range a rule set allows is checked against the rules (`check`, `risk.check_theta`)."""

    theta: float
    key: ClassVar[str] = "risk"
    title: ClassVar[str] = "risk appetite"
    parameters: ClassVar[tuple] = (Parameter(
        "theta", float, "--risk", "THETA", "{ranks} the certainty equivalent under E[exp(THETA * points)]: "
        "< 0 cautious, > 0 bold; 1e-7 <= |THETA| <= 700 / the rules' most total (0.444 for yahtzee)",
        "theta: give a risk appetite (< 0 cautious, > 0 bold)",
        input=Input("theta", "Risk θ", -0.1, 0.1, 0.005,
                    refused=((0, "a risk appetite of 0 is the best average: move the slider off 0"),))),)
    measure: ClassVar[str] = "certainty_equivalent"
    label: ClassVar[str] = "certainty equivalent"
    column: ClassVar[str] = "certainty eq."

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

    def aim(self) -> str:
        return (f"playing for the certainty equivalent of E[exp({self.theta:g} * points)] "
                f"({'bold' if self.theta > 0 else 'cautious'})")

    @property
    def policy(self) -> str:
        return f"risk theta={self.theta:g}"

    def check(self, rules, whole_game=False):
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

    def whole_table(self, rules, use_cache=True, progress=False):
        from .risk import risk_table
        return risk_table(rules, self.theta, use_cache=use_cache, progress=progress)

    def policy_tables(self, table):
        from .policy_play import policy_tables
        return policy_tables(table.space, table.utilities, table.theta)

    def outlook(self, position, scored, use_cache=True):
        from .midgame import risk_position_distribution   # the base class's outlook, by its public name
        return risk_position_distribution(position, self.table(position, use_cache), scored)

    def work(self, rules, position=None, use_cache=True, forward=False):
        from .tables import risk_work
        return risk_work(rules, self.theta, position, use_cache, forward)
