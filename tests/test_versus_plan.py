"""The two-player plan's count: the compiled pair loop against numpy's outer arrays, card by card."""
import numpy as np
import pytest

from yatzy_core.engine.compiled.lead_intervals import open_leads
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.targets import most_gain
from yatzy_core.objectives.two_player import _distinct, _levels
from yatzy_core.objectives.versus_plan import plan_versus, points_so_far

from test_two_player import GAMES


def outer_count(a, na, b, nb):
    low = np.maximum(a[:, None, 0] - b[None, :, 1], -a[:, None, 2])
    high = np.minimum(a[:, None, 1] - b[None, :, 0], b[None, :, 2])
    return int((np.maximum(high - low + 1, 0) * na[:, None] * nb[None, :]).sum())


def test_the_pair_loop_equals_the_outer_arrays_on_random_groups():
    rng = np.random.default_rng(47)
    least = rng.integers(0, 50, (300, 1))
    rows = np.hstack([least, least + rng.integers(0, 30, (300, 1)), rng.integers(0, 40, (300, 1))])
    counts = rng.integers(1, 9, 300)
    expected = outer_count(rows[:100], counts[:100], rows[100:], counts[100:])
    assert expected > 0
    assert open_leads(rows[:100], counts[:100], rows[100:], counts[100:]) == expected


@pytest.mark.parametrize("name", ["upper-bonus", "forced", "three-dice"])
def test_the_plan_counts_every_pair_of_cards_one_by_one(name):
    game = GAMES[name]
    space = StateSpace(game)
    cards = {}
    for k in range(game.n_boxes + 1):
        states = _distinct(space, k)
        cards[k] = np.stack([*points_so_far(space, states), most_gain(space, states)], axis=1)
    expected = tuple((ka, kb, outer_count(cards[ka], np.ones(len(cards[ka]), int), cards[kb],
                                          np.ones(len(cards[kb]), int))) for ka, kb in _levels(game.n_boxes))
    assert plan_versus(game).layers == expected


def test_one_die_one_box_has_eight_open_values():
    # the start (lead 0), then the second player's turn against a full card of 0 .. 6 points
    assert plan_versus(GAMES["chance-2rolls"]).layers == ((0, 1, 7), (0, 0, 1))
