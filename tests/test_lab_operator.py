"""Chapter 5's Bellman-operator lab step (yatzy_core/labs/operator.py): the course's own T passes
on every state of every probe table, a stub is reported as not written yet, and common wrong
operators fail on the case that names their mistake."""
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

from yatzy_core import get_rules
from yatzy_core.labs import check_bellman_operator
from yatzy_core.labs.games import open_states

from test_labs import LAB     # chapter 5's three-dice lab game, one definition


def score(box, dice):
    return {"sixes": 6 * dice.count(6), "three_alike": 15 * (len(set(dice)) == 1), "chance": sum(dice)}[box]


def T_lab(J):
    """The Bellman operator of the lab's game, in exact arithmetic where J is exact."""
    def turn(open_boxes):
        @cache
        def keep(kept, rerolls):
            if len(kept) == 3:
                return on_table(kept, rerolls)
            return sum(keep(tuple(sorted(kept + (f,))), rerolls) for f in range(1, 7)) / 6

        def on_table(dice, rerolls):
            if rerolls == 0:
                return max(score(b, dice) + J[open_boxes - {b}] for b in open_boxes)
            return max(keep(k, rerolls - 1) for j in range(4) for k in combinations(dice, j))
        return keep((), 1)
    return {s: turn(s) if s else Fraction(0) for s in J}


def test_the_course_operator_passes_and_three_applications_solve_the_game():
    report = check_bellman_operator(T_lab, LAB)
    assert report.ok and report.checks == 4 * 8, report
    J = {s: Fraction(0) for s, _, _ in open_states(LAB)}
    for _ in range(3):                                       # B = 3 boxes: T^3(0) = V
        J = T_lab(J)
    assert J[frozenset(LAB.box_names)] == Fraction(8662815271, 362797056)
    assert T_lab(J) == J                                     # the fixed point


def test_a_stub_is_not_written_yet():
    def T_lab(J):
        raise NotImplementedError("write this")
    assert "T_lab is not written yet" in str(check_bellman_operator(T_lab, LAB))


def test_the_identity_fails_first_on_the_zero_table():
    """J = V is a fixed point and T(V + c) = V + c off the full card, so the identity passes those
    states (8 + 7), and the full card of J = 0 and of the seeded table: 17 of 32."""
    report = check_bellman_operator(lambda J: dict(J), LAB)
    assert report.passed == 17
    assert report.problem == "T(J) with {sixes} open, for J = 0: expected 11/2, got 0"   # 3 dice x 6 x 11/36


def test_an_operator_that_keeps_w_on_the_full_card_fails_on_the_shifted_table():
    def keeps_full_card(J):
        TJ = T_lab(J)
        TJ[frozenset()] = J[frozenset()]
        return TJ
    report = check_bellman_operator(keeps_full_card, LAB)
    assert report.passed == 4 * 8 - 1
    assert report.problem.startswith("T(J) with no box open, for J = V + 10: expected 0, got 10")


def test_an_answer_that_is_not_a_dict_is_named():
    report = check_bellman_operator(lambda J: list(J.values()), LAB)
    assert report.passed == 0 and "T must return a dict" in report.problem


def test_a_game_with_an_upper_bonus_is_refused():
    with pytest.raises(ValueError, match="rules must be a game whose state is its open boxes"):
        check_bellman_operator(T_lab, get_rules("yatzy"))
