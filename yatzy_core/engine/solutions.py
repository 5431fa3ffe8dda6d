"""The one way every consumer gets the solved tables of a rule set: `solution_for`.

The advisor, the coach, the widgets, the optimal player and the exact distribution all ask here,
so a solution is read from the per-user cache (`cache.get_solution`) once per process, and a
solution passed in is checked to be for the rules asked about.

>>> solution_for("yatzy") is solution_for(get_rules("yatzy"))
True
"""
from __future__ import annotations

from .cache import cacheable, get_solution
from ..game.checks import instance_of, true_or_false
from ..game.rules import Rules, get_rules
from .solver import Solution

__all__ = ["solution_for"]

_loaded: dict[Rules, Solution] = {}


def solution_for(rules: str | Rules, solution: Solution | None = None, *, use_cache: bool = True,
                 progress: bool = False) -> Solution:
    """The solved tables of `rules`: `solution` when given (ValueError unless it is for these
    rules), else loaded once per process (solved once per machine; with use_cache=False, or for
    the game of a position's open boxes (`cache.never_cache`), solved afresh and neither read nor
    kept)."""
    rules = get_rules(rules)
    instance_of("solution", solution, Solution, "a Solution (solve or get_solution)", optional=True)
    true_or_false("use_cache", use_cache)
    if solution is not None:
        if solution.rules != rules:
            raise ValueError(f"the solution is for rules {solution.rules.name!r}, not {rules.name!r}")
        return solution
    if not use_cache or not cacheable(rules):   # a position's open boxes: one game per position
        return get_solution(rules, use_cache=False, progress=progress)
    if rules not in _loaded:
        _loaded[rules] = get_solution(rules, progress=progress)
    return _loaded[rules]
