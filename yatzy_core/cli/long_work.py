"""What a command says before work that takes more than a few seconds: what it will compute and
roughly how long, so that a newcomer is not left before a silent terminal for minutes (the work
itself then shows a tqdm bar). The rates are those `benchmarks/policy_forward.py` measured on a
2-core machine; a loaded machine takes longer.

>>> rough(3.2), rough(75), rough(600)
('a few seconds', 'about 1 min', 'about 10 min')
"""
from __future__ import annotations

import sys

from tqdm.auto import tqdm

from ..game.rules import Rules
from ..game.states import StateSpace

__all__ = ["QUIET_SECONDS", "rough", "target_seconds", "risk_seconds", "announce", "goal_table"]

QUIET_SECONDS = 5.0           # work shorter than this is not announced
TABLE_LANE_SECONDS = 1.0e-7   # a target table, per (state, total): Yatzy's 5.4e8 in 54 s, yahtzee-no-bonus's 1.3e8 in 11 s
PASS_PER_TABLE = 2.7          # a target policy's forward pass takes 2.3-3.1 times its table
RISK_STATE_SECONDS = 7e-6     # a risk table and its forward pass, per state: Yatzy's 1.43 million in about 10 s


def rough(seconds: float) -> str:
    """A duration as a person would say it before starting."""
    if seconds < 10:
        return "a few seconds"
    if seconds < 60:
        return f"about {round(seconds, -1):.0f} s"
    return f"about {round(seconds / 60):.0f} min"


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


def announce(what: str, seconds: float) -> None:
    """One line on stderr, `yatzy: WHAT: roughly ... on 2 cores`, when the work is not quick."""
    if seconds >= QUIET_SECONDS:
        tqdm.write(f"yatzy: {what}: {rough(seconds)} on 2 cores (longer on a busy machine)", file=sys.stderr)


def goal_table(rules: Rules, goal: int, use_cache: bool = True, progress: bool = True, forward: bool = False):
    """`targets.target_table(rules, goal)`, announced first when it must be solved (and the
    target policy's forward pass when `forward`), solved with a bar."""
    from ..objectives.targets import cached_caps, max_total, table_cap, target_table

    need = min(goal, max_total(rules))
    ready = use_cache and any(cap >= need for cap in cached_caps(rules))
    cap = table_cap(rules, need) if use_cache else need
    parts = [] if ready else [f"solving the whole target table of {rules.name} (every total up to {cap}"
                              + ("; cached for later goals)" if use_cache else ")")]
    parts += ["playing its policy forward"] if forward else []
    if parts:
        announce(" and ".join(parts), target_seconds(rules, cap, not ready, forward))
    return target_table(rules, goal, use_cache=use_cache, progress=progress)
