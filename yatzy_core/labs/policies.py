"""Chapter 6b's lab: policy evaluation of a fixed player, written by the student, checked state by
state against the package's `evaluate_policy`.

The player is `Greedy` (keep the most common face, the higher on ties; score the box worth the
most points now, the first in card order on ties) on a small game whose state between turns is its
open boxes, so the student's function takes a frozenset of box names. No maximum over choices is
taken anywhere: the player's choices are given, and only averages remain.
"""
from __future__ import annotations

from ..players.policy_iteration import evaluate_policy
from ..players.strategies import Greedy
from ..game.states import StateSpace
from .games import _small_game, _value_case, open_states
from .report import TIME_LIMIT, Report, function, run

__all__ = ["check_policy_evaluation"]


def check_policy_evaluation(V, rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `V(open_boxes)`, greedy play's expected points still to come from the start of a turn
    with these boxes open, on every state of the small game `rules`, against `evaluate_policy`
    of `Greedy` to 1e-9, the full card first, then the states before it."""
    function("V", V)
    rules = _small_game(rules)
    values, space = evaluate_policy(Greedy(rules)), StateSpace(rules)
    cases = [_value_case(label, open_boxes, float(values[space.index(used, 0, 0)]))
             for open_boxes, used, label in open_states(rules)]
    return run(getattr(V, "__name__", "V"), V, cases, time_limit)
