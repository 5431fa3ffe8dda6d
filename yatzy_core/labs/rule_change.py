"""Chapter 9's lab: the old optimal policy under a new rule, evaluated by the student, checked
state by state against the package's `evaluate_policy` of `UnderRules`.

The old rules' optimal policy is handed to the student as plain data, `old_policy_table(old)`:
{(open boxes, sorted dice, rerolls left): the dice kept, or the box written when none is left},
the solver's own choices with its tie rule, so that the student's evaluation and the package's
follow the same policy exactly. The student's `V(open_boxes)` plays those choices and scores
with the new rules; its value is a lower bound on the new optimum.

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
from .report import TIME_LIMIT, Report, function, run

__all__ = ["old_policy_table", "policy_table", "check_old_policy_value"]


def old_policy_table(old: Rules) -> dict:
    """The optimal policy of the small game `old` as plain data: {(frozenset of open boxes, sorted
    dice, rerolls left): the sorted dice kept (rerolls left > 0) or the box name written (0)}."""
    rules = small_game(old)
    return policy_table(LookAhead(rules, solve(rules, progress=False, backend="numpy").values, "old optimal"))


def policy_table(player) -> dict:
    """Every choice of a deterministic `player` of a small game as plain data, keyed like
    `old_policy_table`: chapters 6b, 9 and 11 hand a policy to a student (or to `policy_value`)
    in this way."""
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


def check_old_policy_value(V, old: Rules, new: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `V(open_boxes)`, the expected points still to come under the new rules `new` when every
    choice is the old optimal policy's (`old_policy_table(old)`), on every state of the small game,
    full card first, against `evaluate_policy(UnderRules(...))` to 1e-9."""
    function("V", V)
    old, new = small_game(old), small_game(new)
    player = LookAhead(old, solve(old, progress=False, backend="numpy").values, "old optimal")
    values, space = evaluate_policy(UnderRules(player, new)), StateSpace(new)
    cases = [_value_case(label, open_, float(values[space.index(used, 0, 0)]))
             for open_, used, label in open_states(new)]
    return run(getattr(V, "__name__", "V"), V, cases, time_limit)
