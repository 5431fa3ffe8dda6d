"""Chapter 9's lab (yatzy_core/labs/rule_change.py): the old optimal policy of the three-dice lab
game, given as plain data, evaluated under a 25-point three alike: the course's own evaluation
passes, its value is exact and below the new optimum, and a wrong one is named by state."""
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from yatzy_core.engine.solver import solve
from yatzy_core.game.variants import variant
from yatzy_core.labs import check_old_policy_value, old_policy_table

from test_labs import LAB, stub     # chapter 5's three-dice lab game, one definition

NEW = variant(LAB, points={"three_alike": 25})
OLD = old_policy_table(LAB)


def evaluator(points=25):
    def score(box, dice):
        return {"sixes": 6 * dice.count(6), "three_alike": points * (len(set(dice)) == 1), "chance": sum(dice)}[box]

    @cache
    def V_old(open_boxes):
        if not open_boxes:
            return Fraction(0)
        total = Fraction(0)
        for first in product(range(1, 7), repeat=3):
            kept = OLD[(open_boxes, tuple(sorted(first)), 1)]
            for rest in product(range(1, 7), repeat=3 - len(kept)):
                dice = tuple(sorted(kept + rest))
                box = OLD[(open_boxes, dice, 0)]
                total += Fraction(score(box, dice) + V_old(open_boxes - {box}), 6 ** (3 - len(kept)))
        return total / 6 ** 3
    return V_old


def test_the_table_holds_every_choice_of_the_old_policy():
    assert len(OLD) == 7 * 56 * 2                       # open sets x rolls x (keep, write)
    assert OLD[(frozenset({"three_alike"}), (1, 1, 2), 1)] == (1, 1)
    assert OLD[(frozenset(LAB.box_names), (6, 6, 6), 0)] == "three_alike"   # 15 now: sixes kept for later


def test_the_old_policy_under_the_new_rule_is_a_lower_bound():
    V = evaluator()
    bound = V(frozenset(LAB.box_names))
    assert bound == Fraction(28322608883, 1088391168)
    assert solve(LAB, progress=False).expected_score < bound < solve(NEW, progress=False).expected_score
    assert evaluator(points=15)(frozenset(LAB.box_names)) == pytest.approx(solve(LAB, progress=False).expected_score, abs=1e-9)
    assert str(check_old_policy_value(V, LAB, NEW)) == "V_old: all 8 checks passed"


def test_a_wrong_evaluation_is_named_by_state():
    old_points = evaluator(points=15)                    # the old rule's points: the old value, not the bound
    assert str(check_old_policy_value(old_points, LAB, NEW)) == (
        "V_old: 4 of 8 checks passed; with {three_alike} open: expected 1825/648, got 365/216")
    assert "not written yet" in str(check_old_policy_value(stub, LAB, NEW))
