"""The two-player engine against an independent brute force over whole game trees, in Fractions."""
import time
from fractions import Fraction

import pytest

from yatzy_core.engine.bruteforce import brute_force_versus
from yatzy_core.game.rules import Rules
from yatzy_core.game.scoring import Box, n_of_a_kind_fixed, of_a_kind_sum, total
from yatzy_core.objectives.two_player import solve_versus

from test_bruteforce import TINY, up

GAMES = {
    "chance-2rolls": Rules("chance", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=2),
    # the upper bonus: 10 points once ones + twos reach 4 (the lead carries bonuses too)
    "upper-bonus": TINY["upper-bonus"].with_(rolls_per_turn=2),
    # the Yahtzee bonus and the forced joker (the flag of the card matters to both players)
    "forced": Rules("forced", (up(1, 2), Box("yahtzee", n_of_a_kind_fixed(20)), Box("chance", total)),
                    2, 5, "yahtzee", 10, "forced", n_dice=2, rolls_per_turn=2),
    "three-dice": Rules("three-dice", (up(1, 3), Box("one_pair", of_a_kind_sum(2))), 2, 5, n_dice=3,
                        rolls_per_turn=2),
    "pair-or-chance": Rules("pair-or-chance", (Box("pair", of_a_kind_sum(2)), Box("chance", total)),
                            upper_bonus=0, n_dice=2, rolls_per_turn=2),
}


@pytest.mark.parametrize("name", GAMES)
def test_the_first_players_value_equals_the_brute_force(name):
    exact = brute_force_versus(GAMES[name])
    solved = solve_versus(GAMES[name])
    assert solved.first == pytest.approx(float(exact), abs=1e-12)
    assert solved.first_wins + solved.tie + solved.second_wins == pytest.approx(1.0, abs=1e-12)
    assert solved.first == pytest.approx(solved.first_wins + solved.tie / 2, abs=1e-15)
    assert 0 <= solved.tie <= 1 and solved.first_wins >= 0 and solved.second_wins >= 0


def test_one_die_each_is_a_fair_game_with_a_tie_in_six():
    game = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
    solved = solve_versus(game)
    assert (solved.first, solved.tie) == (pytest.approx(0.5, abs=1e-15), pytest.approx(1 / 6, abs=1e-15))


def test_moving_second_is_an_advantage_when_the_first_score_is_seen():
    # one die, one reroll: the second player rerolls knowing what to beat (103/216 by hand)
    assert brute_force_versus(GAMES["chance-2rolls"]) == Fraction(103, 216)
    assert solve_versus(GAMES["chance-2rolls"]).first == pytest.approx(103 / 216, abs=1e-15)
