"""The compiled two-player layer (the target kernel, lanes reversed) against the numpy path."""
import numpy as np
import pytest

from yatzy_core.engine.compiled.layout import tables
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.targets import max_total
from yatzy_core.objectives.two_player import LeadLanes, _after_turn, _distinct, _levels, _turn, solve_versus
from yatzy_core.objectives.versus_compiled import layer_turns, versus_value

from test_two_player import GAMES


@pytest.mark.parametrize("name", GAMES)
def test_every_layer_equals_the_numpy_turns(name):
    game = GAMES[name]
    space, settings, lanes = StateSpace(game), tables(game), LeadLanes(max_total(game))
    leads = np.arange(lanes.width) - lanes.reach
    distinct = {k: _distinct(space, k) for k in range(game.n_boxes + 1)}
    win, compared = {}, 0
    for ka, kb in _levels(game.n_boxes):
        W = np.empty((len(distinct[ka]), len(distinct[kb]), lanes.width))
        T = np.empty_like(W)
        for j in range(len(distinct[kb])):
            later_w, later_t = _after_turn(space, win, distinct, ka, kb, j, leads)
            W[:, j], T[:, j] = _turn(space, distinct[ka], later_w, later_t, lanes)
            ends = space.layer(ka + 1)
            compiled = layer_turns(space, settings, distinct[ka], ends, later_w[ends], lanes)
            np.testing.assert_allclose(compiled, W[:, j], rtol=0, atol=1e-12)
            compared += compiled.size
        win[ka, kb] = W, T
    assert compared == sum(len(distinct[a]) * len(distinct[b]) for a, b in _levels(game.n_boxes)) * lanes.width


@pytest.mark.parametrize("name", GAMES)
def test_the_first_players_value_equals_the_numpy_path(name):
    assert versus_value(GAMES[name]) == pytest.approx(solve_versus(GAMES[name]).first, abs=1e-12)
