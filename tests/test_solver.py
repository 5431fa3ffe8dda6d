import pytest

from yatzy_core.game.states import StateSpace
from yatzy_core.game.rules import get_rules

EXPECTED = {
    "yahtzee": 254.5877,            # Hasbro, forced joker
    "yahtzee-verhoeff": 254.5896,   # Verhoeff's joker reading, the number usually quoted
    "yahtzee-no-bonus": 245.8708,
    "yatzy": 248.4400,
    "yatzy-thesis": 248.6329,       # the two-pairs reading that reproduces the thesis's 248.63
}


@pytest.mark.parametrize("name", EXPECTED)
def test_expected_score(solutions, name):
    assert solutions(name).expected_score == pytest.approx(EXPECTED[name], abs=5e-5)


def test_reachable_state_counts():
    assert StateSpace(get_rules("yahtzee")).counts()["reachable_turn_states"] == 536448
    assert StateSpace(get_rules("yahtzee-no-bonus")).counts()["reachable_turn_states"] == 357632
    assert StateSpace(get_rules("yatzy")).counts()["turn_states"] == 2 ** 15 * 64
