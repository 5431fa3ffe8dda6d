"""Chapter 11's lab: a rule list's value by one backward sweep, written by the student, checked
state by state against the package's `thumb_exact.list_values`.

The list's choices are handed to the student as plain data, `list_table(dl)`: {(open boxes,
sorted dice, rerolls left): the dice kept, or the box written when none is left}, the list's own
answers (its first rule that speaks, else its fallback), so that the student's sweep and the
package's follow the same policy exactly; the sandbox takes `decide` away, so the table is the
only way to the list's choices there. The student's `V(open_boxes)` averages, never maximises.

>>> from yatzy_core.game.rules import get_rules
>>> from yatzy_core.players.thumb_catalogue import box_sum_at_least
>>> yatzy = get_rules("yatzy")
>>> chance = yatzy.with_(name="chance", n_dice=2, boxes=yatzy.boxes[13:14], upper_bonus=0, rolls_per_turn=2)
>>> table = list_table(DecisionList(chance, (box_sum_at_least(chance, "chance", 10),)))
>>> table[(frozenset({"chance"}), (1, 6), 1)], table[(frozenset({"chance"}), (1, 6), 0)]   # the fallback keeps the 6
((6,), 'chance')
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..game.checks import instance_of
from ..game.states import StateSpace
from ..players.thumb import DecisionList
from ..players.thumb_exact import ListPlayer, list_values
from .games import _small_game, open_states
from .report import TIME_LIMIT, TOLERANCE, Report, Wrong, compare, function, number, run
from .rule_change import policy_table

__all__ = ["list_table", "check_list_values"]


def _list(dl) -> DecisionList:
    instance_of("dl", dl, DecisionList, "a DecisionList (players.thumb) of a small game")
    _small_game(dl.rules)
    return dl


def list_table(dl: DecisionList) -> dict:
    """The choices of the decision list `dl` on its small game as plain data: {(frozenset of open
    boxes, sorted dice, rerolls left): the sorted dice kept (rerolls left > 0) or the box name
    written (0)}."""
    return policy_table(ListPlayer(_list(dl)))


def check_list_values(V, dl: DecisionList, time_limit: float = TIME_LIMIT) -> Report:
    """Check `V(open_boxes)`, the expected points still to come when the list `dl` makes every
    choice (`list_table(dl)`), on every state of its small game, full card first, against
    `list_values(dl)` to 1e-9 (exactly equal Fractions are not required: the package's sweep is
    float64)."""
    function("V", V)
    dl = _list(dl)
    values, space = list_values(dl), StateSpace(dl.rules)
    cases = [_decimal_case(label, open_, float(values[space.index(used, 0, 0)]))
             for open_, used, label in open_states(dl.rules)]
    return run(getattr(V, "__name__", "V"), V, cases, time_limit)


def _decimal_case(where: str, open_boxes: frozenset, expected: float):
    """A case whose reference is a float (the sweep's): a wrong answer is printed as a decimal
    like the reference, an exact one with its fraction in brackets, so the two read side by side."""
    def case(ask):
        got = ask(where, open_boxes)
        value = number(got)
        if value is not None and math.isfinite(value) and not abs(float(value) - expected) <= TOLERANCE:
            exact = f" ({value})" if isinstance(value, Fraction) and value.denominator != 1 else ""
            raise Wrong(f"{where}: expected {expected:.10g}, got {float(value):.10g}{exact}")
        compare(where, expected, got)   # no number, or not finite: the shared messages
    return case
