"""Chapter 11's lab (yatzy_core/labs/rule_list.py): a four-rule list on the three-dice lab game,
its choices given as plain data, evaluated by one backward sweep: the course's own sweep passes,
its value is exact and matches the forward pass, and wrong sweeps are named by state."""
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from yatzy_core.labs import check_list_values, list_table
from yatzy_core.players.thumb import DecisionList
from yatzy_core.players.thumb_catalogue import box_made, box_sum_at_least, keep_kind, keep_kind_upper
from yatzy_core.players.thumb_exact import exact_play

from test_labs import LAB, stub     # chapter 5's three-dice lab game, one definition

LIST = DecisionList(LAB, (keep_kind_upper(LAB, 2), keep_kind(LAB, 2), box_made(LAB, "three_alike"),
                          box_sum_at_least(LAB, "chance", 12)))
CHOICES = list_table(LIST)


def score(box, dice):
    return {"sixes": 6 * dice.count(6), "three_alike": 15 * (len(set(dice)) == 1), "chance": sum(dice)}[box]


def sweep(first_roll_only=False, best_box=False):
    @cache
    def V_list(open_boxes):
        if not open_boxes:
            return Fraction(0)
        total = Fraction(0)
        for first in product(range(1, 7), repeat=3):
            kept = tuple(sorted(first)) if first_roll_only else CHOICES[(open_boxes, tuple(sorted(first)), 1)]
            for rest in product(range(1, 7), repeat=3 - len(kept)):
                dice = tuple(sorted(kept + rest))
                if best_box:            # a maximum where the list has a choice: not the list's value
                    box = max(open_boxes, key=lambda b: score(b, dice) + V_list(open_boxes - {b}))
                else:
                    box = CHOICES[(open_boxes, dice, 0)]
                total += Fraction(score(box, dice) + V_list(open_boxes - {box}), 6 ** (3 - len(kept)))
        return total / 6 ** 3
    return V_list


def test_the_table_holds_every_choice_of_the_list():
    assert len(CHOICES) == 7 * 56 * 2                        # open sets x rolls x (keep, write)
    assert CHOICES[(frozenset(LAB.box_names), (1, 6, 6), 1)] == (6, 6)      # rule 1: 2+ of an open upper face
    assert CHOICES[(frozenset({"three_alike", "chance"}), (2, 2, 5), 1)] == (2, 2)   # rule 2
    assert CHOICES[(frozenset({"chance", "sixes"}), (4, 4, 5), 0)] == "chance"     # rule 4: 13 >= 12


def test_the_sweep_is_the_lists_exact_value():
    V = sweep()
    value = V(frozenset(LAB.box_names))
    assert value == pytest.approx(exact_play(LIST).total, abs=1e-12)   # the forward pass, the other way round
    assert value == Fraction(1828546469, 90699264)                     # 20.1605
    assert str(check_list_values(V, LIST)) == "V_list: all 8 checks passed"


def test_wrong_sweeps_are_named_by_state():
    assert str(check_list_values(sweep(first_roll_only=True), LIST)).startswith(
        "V_list: 1 of 8 checks passed; with {sixes} open: expected ")
    assert str(check_list_values(sweep(best_box=True), LIST)) == (   # decimals side by side, the fraction after
        "V_list: 4 of 8 checks passed; with {sixes, three_alike} open: expected 7.332954675, "
        "got 8.355670582 (2339053/279936)")
    assert "not written yet" in str(check_list_values(stub, LIST))
    with pytest.raises(ValueError, match="rules must be a game whose state is its open boxes"):
        list_table(DecisionList(__import__("yatzy_core").get_rules("yatzy")))
