"""What a command says before work that takes more than a few seconds: what it will compute and
roughly how long, so that a newcomer is not left before a silent terminal for minutes (the work
itself then shows a tqdm bar). Each objective says what it must solve and roughly how long
(`AdviceObjective.work`, rates in `objectives.tables`).

>>> rough(3.2), rough(75), rough(600)
('a few seconds', 'about 1 min', 'about 10 min')
"""
from __future__ import annotations

import sys

from tqdm.auto import tqdm

from ..game.rules import Rules

__all__ = ["QUIET_SECONDS", "rough", "announce", "announce_work"]

QUIET_SECONDS = 5.0           # work shorter than this is not announced


def rough(seconds: float) -> str:
    """A duration as a person would say it before starting."""
    if seconds < 10:
        return "a few seconds"
    if seconds < 60:
        return f"about {round(seconds, -1):.0f} s"
    return f"about {round(seconds / 60):.0f} min"


def announce(what: str, seconds: float) -> None:
    """One line on stderr, `yatzy: WHAT: roughly ... on 2 cores`, when the work is not quick."""
    if seconds >= QUIET_SECONDS:
        tqdm.write(f"yatzy: {what}: {rough(seconds)} on 2 cores (longer on a busy machine)", file=sys.stderr)


def announce_work(objective, rules: Rules, position=None, use_cache: bool = True, forward: bool = False) -> bool:
    """Announce what `objective` must solve first (`AdviceObjective.work`) when it takes a while;
    whether there is such work at all (then the caller solves it with a bar)."""
    what, seconds = objective.work(rules, position, use_cache, forward)
    if what:
        announce(what, seconds)
    return bool(what)
