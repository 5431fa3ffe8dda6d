"""Which table answers a position for a goal or a risk appetite, and roughly how long it takes.

A late position needs no whole table: with EXACT_OPEN boxes open or fewer only the subgame of its
open boxes is solved (float64, a fraction of a second). An earlier one reads the rule set's whole
table, solved and cached by the first goal that needs it. The rough times are the rates
`benchmarks/policy_forward.py` measured on a 2-core machine (a loaded machine takes longer).

>>> from yatzy_core.game.rules import get_rules
>>> late = Position.make("yatzy", used=set(get_rules("yatzy").box_names) - {"chance", "yatzy"}, dice="66666")
>>> quick_targets(late, 40), targets_for(late, 40).n_max
(True, 40)
"""
from __future__ import annotations

import numpy as np

from ..engine.cache import cacheable
from ..engine.position import Position
from ..game.rules import Rules
from ..game.states import StateSpace
from .risk import RiskTable, risk_table
from .targets import Targets, cached_caps, max_total, most_gain, solve_targets, table_cap, target_table

__all__ = ["EXACT_OPEN", "late", "cached_cap", "out_of_reach", "quick_targets", "targets_for", "risk_table_for",
           "target_seconds", "risk_seconds", "target_work", "risk_work"]

EXACT_OPEN = 6                # with this many boxes open or fewer the subgame is solved exactly (float64)
TABLE_LANE_SECONDS = 1.0e-7   # a target table, per (state, total): Yatzy's 5.4e8 in 54 s, yahtzee-no-bonus's 1.3e8 in 11 s
PASS_PER_TABLE = 2.7          # a target policy's forward pass takes 2.3-3.1 times its table
RISK_STATE_SECONDS = 7e-6     # a risk table and its forward pass, per state: Yatzy's 1.43 million in about 10 s


def late(position: Position) -> bool:
    """Few enough boxes open that the subgame of the open boxes is solved, not a whole table."""
    return position.rules.n_boxes - len(position.used) <= EXACT_OPEN


def cached_cap(rules: Rules, need: int) -> int | None:
    """The smallest cached whole table's n_max that answers `need` points, if any: the one
    place "is a cached table wide enough" is asked."""
    return next((n for n in cached_caps(rules) if n >= need), None)


def out_of_reach(position: Position, need: int) -> bool:
    """Whether `need` points are more than this card can still gain (every choice is worth 0)."""
    space = StateSpace(position.rules)
    return bool(need > most_gain(space, np.array([position.state(space)]))[0])


def quick_targets(position: Position, need: int) -> bool:
    """Whether a goal's advice answers in about a second: a late position, a cached table, or a
    need past the most the card can still gain (0 at once, no table)."""
    return late(position) or out_of_reach(position, need) or cached_cap(position.rules, need) is not None


def targets_for(position: Position, need: int, use_cache: bool = True, progress: bool = False) -> Targets:
    """A table that answers `need` points from this position. Late, or when nothing may be
    cached (use_cache=False, a never-cached game): the subgame of the open boxes up to `need`,
    in float64. Else the rule set's whole table (float32: choices closer than about 1e-7 may
    swap), read from the cache or solved once and cached (`target_table`)."""
    if late(position) or not use_cache or not cacheable(position.rules):
        return solve_targets(position.rules, need, within=position.mask, progress=progress)
    return target_table(position.rules, need, use_cache=use_cache, progress=progress)


def risk_table_for(position: Position, theta: float, use_cache: bool = True, progress: bool = False) -> RiskTable:
    """The risk table that answers this position: late, the subgame of the open boxes (a
    fraction of a second); early, the whole table (cached, else seconds per theta)."""
    if late(position):
        return risk_table(position.rules, theta, within=position.mask)
    return risk_table(position.rules, theta, use_cache=use_cache, progress=progress)


def _states(rules: Rules) -> int:
    return int(StateSpace(rules).reachable.sum())


def target_seconds(rules: Rules, cap: int, table: bool, forward: bool) -> float:
    """Rough seconds to solve a whole target table up to `cap` (when `table`) and to play its
    policy forward (when `forward`)."""
    solve = _states(rules) * (cap + 1) * TABLE_LANE_SECONDS
    return solve * (table + PASS_PER_TABLE * forward)


def risk_seconds(rules: Rules) -> float:
    """Rough seconds to solve one theta's risk table and play its policy forward."""
    return _states(rules) * RISK_STATE_SECONDS


def target_work(rules: Rules, need: int, position: Position | None, use_cache: bool,
                forward: bool) -> tuple[str, float]:
    """(what, rough seconds) of the table that answers `need` points (from `position`, or a
    whole game) and, when `forward`, of playing its policy forward; ("", 0) when quick."""
    if position is not None and quick_targets(position, need):
        return "", 0.0
    if position is not None and not (use_cache and cacheable(rules)):
        return (f"solving the target table of the open boxes of {rules.name} (every total up to {need}; "
                "not cached)", target_seconds(rules, need, True, False))
    need = min(need, max_total(rules))
    ready = use_cache and cached_cap(rules, need) is not None
    cap = table_cap(rules, need) if use_cache else need
    parts = [] if ready else [f"solving the whole target table of {rules.name} (every total up to {cap}"
                              + ("; cached for later goals)" if use_cache else ")")]
    parts += ["playing its policy forward"] if forward else []
    return " and ".join(parts), target_seconds(rules, cap, not ready, forward) if parts else 0.0


def risk_work(rules: Rules, theta: float, position: Position | None, use_cache: bool,
              forward: bool) -> tuple[str, float]:
    """(what, rough seconds) of one theta's risk table (and its policy's forward pass)."""
    if position is not None and late(position):
        return "", 0.0
    from .risk import cached_theta
    if use_cache and cached_theta(rules, theta):
        return ("playing its policy forward", risk_seconds(rules) / 2) if forward else ("", 0.0)
    what = f"solving the risk table of {rules.name} for theta {theta:g}"
    return what + (" and playing its policy forward" if forward else ""), risk_seconds(rules)
