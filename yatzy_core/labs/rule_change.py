"""Chapter 9's lab: the old optimal policy under a new rule and one improvement step on it,
checked state by state against the package (`evaluate_policy` of `UnderRules`, and the turn of
`engine.turn` against the old policy's values).

The old rules' optimal policy is handed to the student as plain data, `old_policy_table(old)`:
{(open boxes, sorted dice, rerolls left): the dice kept, or the box written when none is left},
the solver's own choices with its tie rule, so that the student's evaluation and the package's
follow the same policy exactly. The student's `V(open_boxes)` plays those choices and scores
with the new rules; its value is a lower bound on the new optimum. One policy improvement step
on it, `Q(open_boxes)` = (T V_old)(open_boxes), the best turn under the new rules with the old
policy playing every later turn, lies between that bound and the new optimum.

>>> from yatzy_core.game.rules import get_rules
>>> yatzy = get_rules("yatzy")
>>> chance = yatzy.with_(name="chance", n_dice=2, boxes=yatzy.boxes[13:14], upper_bonus=0, rolls_per_turn=2)
>>> table = old_policy_table(chance)
>>> table[(frozenset({"chance"}), (1, 6), 1)], table[(frozenset({"chance"}), (1, 6), 0)]   # keep the 6 (rerolling is worth 3.5)
((6,), 'chance')
"""
from __future__ import annotations

import numpy as np

from ..engine.solver import solve
from ..game.dice import dice_of
from ..game.ruleset import Rules
from ..game.states import StateSpace
from ..players.policy_iteration import LookAhead, UnderRules, evaluate_policy, turn_choices
from .games import _small_game as small_game, _value_case, open_states
from .operator import _reference
from .report import TIME_LIMIT, Report, function, run

__all__ = ["old_policy_table", "policy_table", "check_old_policy_value", "check_improvement_step"]


def old_policy_table(old: Rules) -> dict:
    """The optimal policy of the small game `old` as plain data: {(frozenset of open boxes, sorted
    dice, rerolls left): the sorted dice kept (rerolls left > 0) or the box name written (0)}."""
    rules = small_game(old)
    return policy_table(LookAhead(rules, solve(rules, progress=False, backend="numpy").values, "old optimal"))


def policy_table(player) -> dict:
    """Every choice of a deterministic `player` of a small game as plain data, keyed like
    `old_policy_table`: chapters 6b, 9 and 11 hand a policy to `policy_value` in this way."""
    rules = small_game(player.rules)
    space, dice = StateSpace(rules), rules.dice
    table = {}
    for open_, used, _ in open_states(rules):
        if not open_:
            continue
        box, keeps = turn_choices(player, np.array([space.index(used, 0, 0)]))
        for r in range(dice.n_rolls):
            roll = dice_of(dice.rolls[r])
            table[(open_, roll, 0)] = rules.box_names[int(box[r, 0])]
            for j, keep in enumerate(keeps, start=1):          # keeps[j - 1]: j rerolls left
                table[(open_, roll, j)] = dice_of(dice.keepers[int(keep[r, 0])])
    return table


def _old_values(old: Rules, new: Rules) -> tuple[list, dict]:
    """The states of `new`, and the old optimal policy's value under `new` on each: {open boxes: value}."""
    old, new = small_game(old), small_game(new)
    player = LookAhead(old, solve(old, progress=False, backend="numpy").values, "old optimal")
    values, space = evaluate_policy(UnderRules(player, new)), StateSpace(new)
    states = open_states(new)
    return states, {open_: float(values[space.index(used, 0, 0)]) for open_, used, _ in states}


def check_old_policy_value(V, old: Rules, new: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `V(open_boxes)`, the expected points still to come under the new rules `new` when every
    choice is the old optimal policy's (`old_policy_table(old)`), on every state of the small game,
    full card first, against `evaluate_policy(UnderRules(...))` to 1e-9."""
    function("V", V)
    states, values = _old_values(old, new)
    cases = [_value_case(label, open_, values[open_]) for open_, _, label in states]
    return run(getattr(V, "__name__", "V"), V, cases, time_limit)


def check_improvement_step(Q, old: Rules, new: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `Q(open_boxes)`, one policy improvement step on the old policy under the new rules:
    the expected points of the best turn under `new` plus the old policy's value (under `new`)
    of the state after it, on every state of the small game, full card first, against the
    package's turn (`engine.turn.turn_values`) to 1e-9; 0 on the full card."""
    function("Q", Q)
    states, values = _old_values(old, new)
    expected = _reference(small_game(new), values)
    cases = [_value_case(label, open_, expected[open_]) for open_, _, label in states]
    return run(getattr(Q, "__name__", "Q"), Q, cases, time_limit)
