"""The outscore loss is the advice's own policy's (objectives/outscore_loss.py, `ties`): choices
within TIE of the best are ordered by max-mean's values, as `advisor.choices` orders them."""
import numpy as np
import pytest

from yatzy_core.engine.basics import NEG
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.outscore_loss import _choices, outscore_loss

from test_two_player import GAMES


def test_a_tie_in_the_chance_to_win_goes_to_the_better_average():
    space = StateSpace(GAMES["pair-or-chance"])                    # two boxes, one roll of two dice
    n_rolls = space.rules.dice.n_rolls
    choice = np.zeros((2, n_rolls, 1, 3))                          # (boxes, rolls, movers, leads)
    choice[0, :, 0] = [0.5, 0.7, 0.2]                               # lead 0: equal; lead 1: box 0; lead 2: box 1
    choice[1, :, 0] = [0.5, 0.6, 0.3]
    mean = np.zeros((2, n_rolls, 1))
    mean[0], mean[1] = 10.0, 12.0                                   # box 1 scores more on average
    advice_box, _ = _choices(space, choice, mean)
    engine_box, _ = _choices(space, choice, None)
    assert advice_box[0, 0].tolist() == [1, 0, 1]                   # the tie to the better mean
    assert engine_box[0, 0].tolist() == [0, 0, 1]                   # the tie to the first box
    choice[1, 0, 0, 0] = NEG                                        # not allowed: never chosen
    assert _choices(space, choice, mean)[0][0, 0, 0] == 0


def test_on_the_tiny_games_both_tie_rules_play_to_the_same_value():
    rules = GAMES["three-dice"]
    advice, engine = outscore_loss(rules, "second"), outscore_loss(rules, "second", ties="engine")
    assert (advice.ties, engine.ties) == ("advice", "engine")
    assert advice.approximate == pytest.approx(0.5112134968800328, abs=1e-12)
    assert abs(advice.approximate - engine.approximate) < 1e-12


def test_an_unknown_tie_rule_is_refused_by_name():
    with pytest.raises(ValueError, match="^ties must be one of advice, engine, got 'mean'$"):
        outscore_loss(GAMES["three-dice"], ties="mean")
