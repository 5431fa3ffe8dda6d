"""Fitted value iteration (players.fitted) and a rule list's values by a backward sweep
(thumb_exact.list_values), on cards small enough to check exactly."""
from fractions import Fraction

import numpy as np
import pytest

from yatzy_core.engine.solver import solve
from yatzy_core.game.rules import get_rules
from yatzy_core.players.fitted import fitted_value_iteration, value_features
from yatzy_core.players.policy_iteration import LookAhead, evaluate_policy
from yatzy_core.players.thumb import DecisionList
from yatzy_core.players.thumb_catalogue import box_made, keep_two_pairs
from yatzy_core.players.thumb_exact import exact_play, list_values
from yatzy_core.game.states import StateSpace


def test_one_box_is_fitted_exactly():
    """Chance alone: a constant and one bit hold both values, so the fit is the best turn, 70/3."""
    rules = get_rules("yatzy")
    chance = rules.with_(name="chance", boxes=rules.boxes[13:14], upper_bonus=0)
    fit = fitted_value_iteration(chance)
    assert Fraction(float(fit.values[0])).limit_denominator(100) == Fraction(70, 3)
    assert fit.names == ["constant", "chance open"]


def test_bonus_features_and_greedy_policy_value():
    """Three upper boxes with a bonus at 9: the features, and the greedy policy's exact value lies
    between the never-reroll policy's and the optimum (the policy improvement bound)."""
    rules = get_rules("yatzy")
    game = rules.with_(name="ones-twos-threes", boxes=rules.boxes[0:3], upper_bonus_threshold=9, upper_bonus=20)
    space = StateSpace(game)
    phi, names = value_features(space)
    assert names[-3:] == ["bonus won", "bonus in reach", "share of the bonus threshold missing"]
    start = space.index(0, 0)
    assert phi[start].tolist() == [1, 1, 1, 1, 0, 1, 1.0]            # all open, bonus 9 away
    fit = fitted_value_iteration(game)
    greedy = evaluate_policy(LookAhead(game, fit.values))[start]
    optimum = solve(game, progress=False).expected_score
    assert greedy <= optimum + 1e-9
    assert (round(float(greedy), 4), round(float(optimum), 4)) == (33.8608, 34.6873)   # 0.8265 below


def test_list_values_agree_with_the_forward_pass():
    """A two-rule list on a four-box card: V^pi at the start by the backward sweep equals the
    forward pass's exact total, and every state's value lies at or below the optimum."""
    rules = get_rules("yahtzee-no-bonus")
    small = rules.with_(name="four-boxes", boxes=tuple(rules.boxes[rules.box_index(n)] for n in
                        ("ones", "twos", "full_house", "chance")), upper_bonus_threshold=5, upper_bonus=10,
                        yahtzee_box=None)
    dl = DecisionList(small, (box_made(small, "full_house"), keep_two_pairs(small, "full_house")))
    values = list_values(dl)
    assert values[0] == pytest.approx(exact_play(dl).total, abs=1e-9)
    reached = StateSpace(small).reachable
    assert (values[reached] <= solve(small, progress=False).values[reached] + 1e-9).all()
