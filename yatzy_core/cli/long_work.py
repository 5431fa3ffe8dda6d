"""What a command says before work that takes more than a few seconds: what it will compute and
roughly how long, so that a newcomer is not left before a silent terminal for minutes (the work
itself then shows a tqdm bar). Each objective says what it must solve and roughly how long
(`AdviceObjective.work`, rates in `objectives.tables`); the words and the switch that silences
them live in `engine.progress`, so that the Python API speaks the same way.

>>> rough(3.2), rough(75), rough(600)
('a few seconds', 'about 1 min', 'about 10 min')
"""
from __future__ import annotations

from ..engine.progress import QUIET_SECONDS, announce, rough
from ..game.rules import Rules

__all__ = ["QUIET_SECONDS", "rough", "announce", "announce_work"]


def announce_work(objective, rules: Rules, position=None, use_cache: bool = True, forward: bool = False) -> bool:
    """Announce what `objective` must solve first (`AdviceObjective.work`) when it takes a while;
    whether there is such work at all (then the caller solves it with a bar)."""
    what, seconds = objective.work(rules, position, use_cache, forward)
    if what:
        announce(what, seconds)
    return bool(what)
