"""The compiled two-player layer (the target kernel, lanes reversed) against the numpy path."""
import numpy as np
import pytest

from yatzy_core.engine.compiled.layout import tables
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.targets import max_total, most_gain
from yatzy_core.objectives.two_player import LeadLanes, _after_turn, _distinct, _levels, _turn, solve_versus
from yatzy_core.objectives.versus_compiled import layer_ties, layer_turns, versus_split, versus_value

from test_two_player import GAMES

# 3 rolls a turn: the tie lanes' rerolls over two stages (`versus_ties._reroll_both`, w.choice[stage]),
# which GAMES' 2-roll turns do not reach
SPLIT_GAMES = {**GAMES, "three-dice-3rolls": GAMES["three-dice"].with_(name="three-dice-3rolls", rolls_per_turn=3)}


@pytest.mark.parametrize("name", GAMES)
def test_every_layer_equals_the_numpy_turns(name):
    """W by the target kernel and the chance of a tie by the tie lanes, both against `_turn`."""
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
            waiter_gain = int(most_gain(space, distinct[kb][j:j + 1])[0])   # the won leads skipped too
            trimmed = layer_turns(space, settings, distinct[ka], ends, later_w[ends], lanes, waiter_gain)
            np.testing.assert_allclose(trimmed, W[:, j], rtol=0, atol=1e-12)
            for gain in (None, waiter_gain):          # the chance of a tie along W's choices, compiled
                ties = layer_ties(space, settings, distinct[ka], ends, later_w[ends], later_t[ends], lanes, gain)
                np.testing.assert_allclose(ties, T[:, j], rtol=0, atol=1e-12)
            compared += compiled.size
        win[ka, kb] = W, T
    assert compared == sum(len(distinct[a]) * len(distinct[b]) for a, b in _levels(game.n_boxes)) * lanes.width


@pytest.mark.parametrize("name", GAMES)
def test_the_first_players_value_equals_the_numpy_path(name):
    assert versus_value(GAMES[name]) == pytest.approx(solve_versus(GAMES[name]).first, abs=1e-12)


@pytest.mark.parametrize("name", SPLIT_GAMES)
def test_the_compiled_split_into_wins_and_ties_equals_the_numpy_path(name):
    exact, compiled = solve_versus(SPLIT_GAMES[name]), versus_split(SPLIT_GAMES[name])
    assert (compiled.first, compiled.first_wins, compiled.tie, compiled.second_wins) == pytest.approx(
        (exact.first, exact.first_wins, exact.tie, exact.second_wins), abs=1e-12)
    assert compiled.values == exact.values and 0 < compiled.tie < 1


def test_decided_leads_are_not_worked():
    """A mover with 3 points to come against a waiter with 4, leads -10..10: the kernel works
    lanes 7..14 (leads 4..-3), 8 of 21; leads 5..10 are won, -4..-10 lost."""
    from yatzy_core.objectives.versus_compiled import decided_lanes
    won, last = decided_lanes(LeadLanes(10), [3], 4)
    lanes = np.arange(1, 22)
    worked = (lanes > won) & (lanes <= last[0])
    assert worked.sum() == 8 and (10 + 1 - lanes[worked]).tolist() == list(range(4, -4, -1))
    assert decided_lanes(LeadLanes(10), [30], None) == (0, np.array([21]))
