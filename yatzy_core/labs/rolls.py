"""The dice labs: chapter 2's transition row P(roll | keeper) and chapter 4's keepers recursion,
each checked against the package on every keeper of a few dice.

A roll and a keeper are sorted tuples of dice, as a student writes them: (1, 1, 4).

>>> from fractions import Fraction
>>> def one_sixth_each(kept, n_dice):                    # wrong: forgets how many orders a roll has
...     from itertools import combinations_with_replacement as cwr
...     free = n_dice - len(kept)
...     return {tuple(sorted(kept + r)): Fraction(1, 6 ** free) for r in cwr(range(1, 7), free)}
>>> print(check_transition_row(one_sixth_each))
transition_row: 1 of 5 checks passed; at keeper () of 2 dice, roll (1, 2): expected 1/18, got 1/36: every roll got the same chance, but rolls are not equally likely: (1, 2) comes up two ways (1 then 2, 2 then 1), (1, 1) one; count each roll's orders
"""
from __future__ import annotations

import numbers
from fractions import Fraction

import numpy as np

from ..game.dice import dice_of, dice_space
from ..game.ruleset import Rules
from ..game.scoring import Box, total
from ..game.states import StateSpace
from ..engine.turn import keeper_values
from .report import Report, Wrong, compare, function, number, run, show
from .sandbox import TIME_LIMIT

__all__ = ["check_transition_row", "check_keeper_table", "ROLL_VALUES"]

# The transition rows checked: every keeper of this many dice. Two dice first: the common wrong
# idea, every roll (a multiset) equally likely, is right for one die and shows first at two.
DICE_COUNTS = (2, 1, 3, 4, 5)
MULTISETS = ("every roll got the same chance, but rolls are not equally likely: (1, 2) comes up "
             "two ways (1 then 2, 2 then 1), (1, 1) one; count each roll's orders")


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _read_table(where: str, got, sizes: range, what: str) -> dict:
    """The student's answer as a dict from sorted tuples of dice; Wrong if it is not one."""
    if not isinstance(got, dict):
        raise Wrong(f"{where}: expected a dict from {what} (sorted tuples) to numbers, got {type(got).__name__}")
    for key in got:
        if not (isinstance(key, tuple) and len(key) in sizes and list(key) == sorted(key)
                and all(isinstance(d, numbers.Integral) and 1 <= d <= 6 for d in key)):
            raise Wrong(f"{where}: the key {key!r} is not one of the {what} "
                        f"(a sorted tuple of {_dice(sizes[-1]) if len(sizes) == 1 else 'dice'} 1..6)")
    return got


def _same_table(where: str, expected: dict, got: dict, item: str, missing: str) -> None:
    """Wrong at the first entry of `expected` that `got` does not match (a missing entry counts as
    0, so a roll that cannot come up may be left out)."""
    for key, value in expected.items():
        if key not in got:
            if value:
                raise Wrong(f"{where}, {item} {key}: expected {show(value)}, got nothing ({missing})")
            continue
        compare(f"{where}, {item} {key}", value, got[key])


def _all_alike(row: dict, rolls: list) -> bool:
    """True if the student's row gives the same number to every roll in `rolls` (two or more)."""
    values = {number(row.get(r)) for r in rolls}
    return len(rolls) > 1 and len(values) == 1 and None not in values


def _transition_case(n: int):
    def case(ask):
        dice = dice_space(n)
        rolls = [dice_of(r) for r in dice.rolls]
        inside = [[] for _ in dice.keepers]                          # the rolls each keeper can become
        for k, r in dice.pairs:
            inside[k].append(r)
        for k, kept in enumerate(dice.keepers):
            kept = dice_of(kept)
            where = f"at keeper {kept} of {_dice(n)}"
            got = _read_table(where, ask(where, kept, n), range(n, n + 1), "rolls")
            expected = {rolls[r]: dice.p_exact(k, r) for r in inside[k]}
            try:
                _same_table(where, expected, got, "roll", "the roll is missing")
            except Wrong as wrong:
                if len(set(expected.values())) > 1 and _all_alike(got, list(expected)):
                    raise Wrong(f"{wrong}: {MULTISETS}") from None
                raise
            for roll in sorted(set(got) - set(expected)):          # rolls that cannot come up
                compare(f"{where}, roll {roll}", Fraction(0), got[roll])
    return case


def check_transition_row(transition_row, time_limit: float = TIME_LIMIT) -> Report:
    """Check `transition_row(kept, n_dice)`, the chance of each roll of n_dice dice when the
    dice `kept` are held and the others rolled (a dict roll -> chance), against the package's
    exact P(roll | keeper) (`DiceSpace.p_exact`) for every keeper of 1 to 5 dice. The function
    runs without the package's dice probabilities, each call within `time_limit` seconds."""
    function("transition_row", transition_row)
    return run("transition_row", transition_row, [_transition_case(n) for n in DICE_COUNTS], time_limit)


# The roll values of chapter 4's lab: (what they are, number of dice, the value of a sorted roll).
# The larger of two dice first: averaging over the rolls as if each were equally likely gets the
# sums right (they are symmetric: d and 7 - d), so a case without that symmetry comes first.
ROLL_VALUES = (
    ("the larger die", 2, max),
    ("the sum of the dice", 1, sum),
    ("15 for three alike, else 0", 3, lambda roll: 15 * (len(set(roll)) == 1)),
    ("the sum of the dice", 5, sum),
    ("1 for five alike, else 0", 5, lambda roll: int(len(set(roll)) == 1)),
    ("the product of the dice modulo 7", 5, lambda roll: int(np.prod(roll)) % 7),
)


def _engine_keepers(n: int, values: dict) -> dict:
    """The value of every keeper by the package's turn engine (`keeper_values`)."""
    space = StateSpace(Rules("keepers", (Box("chance", total),), upper_bonus=0, n_dice=n, rolls_per_turn=1))
    dice = space.rules.dice
    rolls = np.array([[float(values[dice_of(r)])] for r in dice.rolls])
    keep = keeper_values(space, rolls)[:, 0]
    return {dice_of(k): float(v) for k, v in zip(dice.keepers, keep)}


def _multisets_keepers(n: int, values: dict) -> dict:
    """The common wrong answer: each keeper's value as the plain average over the rolls it can
    become, as if every roll (a multiset) were equally likely."""
    rolls = [dice_of(r) for r in dice_space(n).rolls]
    out = {}
    for k in dice_space(n).keepers:
        kept = dice_of(k)
        reach = [values[r] for r in rolls if all(r.count(d) >= kept.count(d) for d in set(kept))]
        out[kept] = sum(reach) / len(reach)
    return out


def _keeper_case(what: str, n: int, value):
    def case(ask):
        values = {dice_of(r): Fraction(value(dice_of(r))) for r in dice_space(n).rolls}
        where = f"with roll values '{what}' of {_dice(n)}"
        got = _read_table(where, ask(where, dict(values), n), range(n + 1), "keepers")
        try:
            _same_table(where, _engine_keepers(n, values), got, "at keeper", "the keeper is missing")
        except Wrong as wrong:
            wrong_idea = _multisets_keepers(n, values)
            alike = [k for k, v in wrong_idea.items() if k in got and number(got[k]) is not None
                     and abs(float(number(got[k])) - float(v)) <= 1e-9]
            if len(alike) == len(wrong_idea):
                raise Wrong(f"{wrong}: that is the plain average over the rolls the keeper can become, "
                            "as if every roll were equally likely; they are not: a roll comes up in as "
                            "many ways as it has orders, so average over the next die (1/6 each) instead") from None
            raise
    return case


def check_keeper_table(keeper_table, time_limit: float = TIME_LIMIT) -> Report:
    """Check `keeper_table(roll_value, n_dice)`, the value of every keeper (0 to n_dice dice)
    from the value of every roll (a dict sorted roll -> value), against the turn engine's
    keepers recursion (`keeper_values`) on six sets of roll values. The function runs without
    the package's turn engine, each call within `time_limit` seconds."""
    function("keeper_table", keeper_table)
    return run("keeper_table", keeper_table, [_keeper_case(*case) for case in ROLL_VALUES], time_limit)
