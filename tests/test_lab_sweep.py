"""Chapter 6b's loop in the package (yatzy_core/labs/sweep.py): `policy_value` of a table of choices
is the exact value of the policy behind it, the value a student's loop computes in chapter 6b's
lab (greedy play) and the package's evaluation of the old optimal policy (chapter 9); chapter 11's
list, written as a function of its choices, passes its check through it, and a rule left out is
named by the first state it changes."""
from fractions import Fraction
from itertools import combinations, product

import pytest

from yatzy_core.engine.solver import solve
from yatzy_core.labs import check_list_values, list_table, old_policy_table, policy_table, policy_value
from yatzy_core.players.strategies import Greedy
from yatzy_core.players.thumb import DecisionList
from yatzy_core.players.thumb_catalogue import box_made, box_sum_at_least, keep_kind, keep_kind_upper

from test_labs import LAB     # chapter 5's three-dice lab game, one definition

ORDER = ("sixes", "three_alike", "chance")
ROLLS = sorted({tuple(sorted(roll)) for roll in product(range(1, 7), repeat=3)})
OPEN = [frozenset(boxes) for k in (1, 2, 3) for boxes in combinations(ORDER, k)]


def score(box, dice):
    return {"sixes": 6 * dice.count(6), "three_alike": 15 * (len(set(dice)) == 1), "chance": sum(dice)}[box]


def test_the_loop_gives_greedy_plays_and_optimal_plays_exact_values():
    greedy = policy_value(policy_table(Greedy(LAB)), score)
    assert greedy(frozenset(ORDER)) == Fraction(7341184241, 362797056)     # chapter 6b's lab answer
    assert greedy(frozenset({"three_alike"})) == Fraction(365, 216)        # its worked case
    assert greedy(frozenset()) == 0
    optimal = policy_value(old_policy_table(LAB), score)(frozenset(ORDER))
    assert isinstance(optimal, Fraction)
    assert float(optimal) == pytest.approx(solve(LAB, progress=False).expected_score, abs=1e-12)


def list_choice(open_boxes, dice, rerolls_left, rule_3=True):
    face = max(set(dice), key=lambda f: (dice.count(f), f))
    if rerolls_left:
        return (face,) * dice.count(face)
    if rule_3 and "three_alike" in open_boxes and len(set(dice)) == 1:
        return "three_alike"
    if "chance" in open_boxes and sum(dice) >= 12:
        return "chance"
    return max((b for b in ORDER if b in open_boxes), key=lambda b: (score(b, dice), -ORDER.index(b)))


def choices_of(choice):
    return {(o, d, left): choice(o, d, left) for o in OPEN for d in ROLLS for left in (1, 0)}


def test_chapter_11s_list_written_as_its_choices_passes_and_a_missing_rule_is_named():
    dl = DecisionList(LAB, (keep_kind_upper(LAB, 2), keep_kind(LAB, 2), box_made(LAB, "three_alike"),
                            box_sum_at_least(LAB, "chance", 12)))
    assert choices_of(list_choice) == list_table(dl)

    def V_list(open_boxes):
        return policy_value(choices_of(list_choice), score)(open_boxes)

    def no_rule_3(open_boxes):
        return policy_value(choices_of(lambda o, d, left: list_choice(o, d, left, rule_3=False)), score)(open_boxes)

    assert str(check_list_values(V_list, dl)) == "V_list: all 8 checks passed"
    assert str(check_list_values(no_rule_3, dl)) == (
        "no_rule_3: 5 of 8 checks passed; with {sixes, three_alike} open: expected 7.332954675, "
        "got 7.346797125 (2056633/279936)")


@pytest.mark.parametrize("choices, score_, message", [
    ({}, score, "choices must be a non-empty dict"),
    ([("x",)], score, "choices must be a non-empty dict"),
    ({(frozenset({"chance"}), (1, 2, 3), 0): "chance"}, 15, "score must be a function"),
])
def test_bad_input_is_refused_by_name(choices, score_, message):
    with pytest.raises(ValueError, match=message):
        policy_value(choices, score_)
