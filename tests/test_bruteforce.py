"""The fast solver against an independent brute force in exact Fractions, on tiny rule sets."""
from fractions import Fraction
from functools import cache
from inspect import signature

import pytest

from yatzy_core.engine.bruteforce import brute_force_value
from yatzy_core.game.rules import Rules, get_rules
from yatzy_core.game.scoring import (Box, n_of_a_kind_fixed, of_a_kind_sum, of_a_kind_total,
                                     straight_fixed, total, two_pairs, upper)
from yatzy_core.engine.solver import solve

# every backend the fast solver offers (the compiled kernel and the numpy reference)
BACKENDS = ("numba", "numpy") if "backend" in signature(solve).parameters else (None,)
NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")


def up(face, n_dice):
    return Box(NAMES[face - 1], upper(face), face=face, max_score=face * n_dice)


def two_dice(joker, yahtzee_bonus=50, rolls=3):
    """Two dice: faces 1 and 2 have upper boxes, 3-6 do not, so every joker branch is taken."""
    boxes = (up(1, 2), up(2, 2), Box("straight", straight_fixed(2, 15), joker_value=15),
             Box("yahtzee", n_of_a_kind_fixed(20)), Box("chance", total))
    return Rules(f"two-dice-{joker}-{yahtzee_bonus}", boxes, 5, 10, "yahtzee", yahtzee_bonus, joker,
                 n_dice=2, rolls_per_turn=rolls)


TINY = {
    # upper bonus only: 10 points once ones + twos reach 4
    "upper-bonus": Rules("upper-bonus", (up(1, 2), up(2, 2), Box("pair", n_of_a_kind_fixed(10))),
                         4, 10, n_dice=2, rolls_per_turn=3),
    "forced": two_dice("forced"),
    "forced-no-bonus": two_dice("forced", yahtzee_bonus=0, rolls=2),
    "free": two_dice("free"),
    "none": two_dice("none"),
    # Yatzy-style sums with 3 dice
    "three-dice": Rules("three-dice", (up(1, 3), Box("one_pair", of_a_kind_sum(2)),
                                       Box("three_of_a_kind", of_a_kind_sum(3)),
                                       Box("chance", total)),
                        2, 5, n_dice=3, rolls_per_turn=2),
    # 4-faced dice, forced joker; 2s and 3s have no upper box
    "four-faces": Rules("four-faces", (up(1, 3), up(4, 3),
                                       Box("run", straight_fixed(3, 15), joker_value=15),
                                       Box("yahtzee", n_of_a_kind_fixed(25))),
                        6, 10, "yahtzee", 50, "forced", n_dice=3, faces=4, rolls_per_turn=3),
    # 4 dice of 3 faces, free joker
    "four-dice": Rules("four-dice", (up(2, 4), Box("two_pairs", two_pairs),
                                     Box("three_of_a_kind", of_a_kind_total(3)),
                                     Box("yahtzee", n_of_a_kind_fixed(30))),
                       4, 10, "yahtzee", 40, "free", n_dice=4, faces=3, rolls_per_turn=3),
    # one die: every roll is an n of a kind
    "one-die": Rules("one-die", (up(1, 1), up(2, 1), Box("yahtzee", n_of_a_kind_fixed(10)),
                                 Box("chance", total)),
                     3, 7, "yahtzee", 20, "forced", n_dice=1, rolls_per_turn=2),
}


@cache
def exact(name: str) -> Fraction:
    return brute_force_value(TINY[name])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", TINY)
def test_fast_solver_matches_brute_force(name, backend):
    options = {} if backend is None else {"backend": backend}
    fast = solve(TINY[name], progress=False, **options).expected_score
    assert fast == pytest.approx(float(exact(name)), abs=1e-12)


def test_hand_computed_values():
    one_die = Rules("ones", (up(1, 1),), 1, 10, n_dice=1, rolls_per_turn=2)  # keep a 1: 1 + 10
    assert brute_force_value(one_die) == Fraction(1, 6) * 11 + Fraction(5, 6) * Fraction(11, 6)
    pair = Rules("pair", (Box("pair", n_of_a_kind_fixed(6)),), upper_bonus=0, n_dice=2,
                 rolls_per_turn=2)   # a pair at once, or after rerolling one (or both) dice
    assert brute_force_value(pair) == 6 * (Fraction(1, 6) + Fraction(5, 6) * Fraction(1, 6))


def test_the_rules_that_are_checked_matter():
    """Each feature changes the exact value, so agreement above is evidence about that feature."""
    assert exact("upper-bonus") != brute_force_value(TINY["upper-bonus"].with_(upper_bonus=0))
    assert len({exact("forced"), exact("free"), exact("none")}) == 3
    assert exact("forced") != brute_force_value(TINY["forced"].with_(yahtzee_bonus=0))


def test_refuses_big_games():
    with pytest.raises(ValueError, match="too big for brute force"):
        brute_force_value(get_rules("yahtzee"))
