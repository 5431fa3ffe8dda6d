"""The policy evaluation loop of chapter 6b's lab, for any policy given as a table of choices: the
loop a student writes once (for greedy play), which chapter 11 then calls instead of writing it
again for a rule list.

A table is keyed like `policy_table`'s: {(frozenset of open boxes, sorted dice, rerolls left):
the sorted dice kept (rerolls left > 0) or the box name written (0)}. The value is exact: every
roll is averaged in `Fraction`s over the ordered throws of the dice, and no maximum is taken.

>>> from yatzy_core.game.rules import get_rules
>>> from yatzy_core.labs import old_policy_table
>>> yatzy = get_rules("yatzy")
>>> chance = yatzy.with_(name="chance", n_dice=2, boxes=yatzy.boxes[13:14], upper_bonus=0, rolls_per_turn=2)
>>> V = policy_value(old_policy_table(chance), lambda box, dice: sum(dice))
>>> V(frozenset()), V(frozenset({"chance"}))     # keep each 4, 5 or 6: 2 x (5/2 + 7/4)
(Fraction(0, 1), Fraction(17, 2))
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

__all__ = ["policy_value"]


def policy_value(choices: dict, score):
    """V(open_boxes): the expected points still to come from the start of a turn with these boxes
    open when the table `choices` makes every choice and `score(box, sorted dice)` pays, as a cached
    function of a frozenset of box names returning a `Fraction` (0 when no box is open)."""
    if not isinstance(choices, dict) or not choices:
        raise ValueError(f"choices must be a non-empty dict keyed (open boxes, sorted dice, rerolls left), "
                         f"got {type(choices).__name__}")
    if not callable(score):
        raise ValueError(f"score must be a function score(box, dice), got {type(score).__name__}")
    n_dice = len(next(iter(choices))[1])
    rerolls = max(left for _, _, left in choices)

    @cache
    def W(open_boxes: frozenset, dice: tuple, left: int) -> Fraction:
        """The roll `dice` on the table with `left` rerolls to go, the policy playing on."""
        if left == 0:
            box = choices[(open_boxes, dice, 0)]
            return score(box, dice) + V(open_boxes - {box})
        kept = tuple(choices[(open_boxes, dice, left)])
        total = sum((W(open_boxes, tuple(sorted(kept + rest)), left - 1)
                     for rest in product(range(1, 7), repeat=n_dice - len(kept))), Fraction(0))
        return total / 6 ** (n_dice - len(kept))

    @cache
    def V(open_boxes: frozenset) -> Fraction:
        if not open_boxes:
            return Fraction(0)
        throws = product(range(1, 7), repeat=n_dice)
        return sum((W(open_boxes, tuple(sorted(t)), rerolls) for t in throws), Fraction(0)) / 6 ** n_dice

    return V
