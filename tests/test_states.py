"""StateSpace: one instance per rule set while it is in use, never changed."""
import gc

import pytest

from yatzy_core.game.rules import Rules, get_rules
from yatzy_core.game.scoring import Box, make_scorer
from yatzy_core.game.states import StateSpace


def _tiny(name="tiny-space"):
    return Rules(name, (Box("chance", make_scorer("chance"), max_score=12),), n_dice=2, upper_bonus=0)


def test_equal_rules_share_one_space():
    yatzy = get_rules("yatzy")
    space = StateSpace(yatzy)
    assert StateSpace(yatzy) is space and StateSpace(rules=yatzy.with_()) is space
    assert StateSpace(yatzy.with_(upper_bonus=35)) is not space
    assert StateSpace(yatzy.with_(name="mine")).rules.name == "mine"    # its own rules, its own name


def test_a_space_no_one_holds_is_let_go():
    rules = _tiny()
    first = id(StateSpace(rules))
    kept = StateSpace(rules)
    assert StateSpace(rules) is kept
    del kept
    gc.collect()
    assert rules not in StateSpace._live and first not in map(id, StateSpace._live.values())


def test_a_shared_space_cannot_be_changed():
    space = StateSpace(get_rules("yahtzee"))
    assert int(space.reachable.sum()) == 536448 and space.boxes_used[-1] == 13
    for table in (space.reachable, space.upper_reach, space.boxes_used):
        with pytest.raises(ValueError, match="read-only"):
            table[0] = table[0]
    with pytest.raises(AttributeError):
        space.rules = get_rules("yatzy")


def test_rules_must_be_rules():
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        StateSpace("yatzy")


def test_a_shared_space_counts_as_a_fresh_one():
    """What the first caller built is what every later caller reads."""
    first = StateSpace(get_rules("yatzy"))
    assert [len(first.layer(k)) for k in range(4)] == [1, 45, 756, 5932]
    assert [len(StateSpace(get_rules("yatzy")).layer(k)) for k in range(4)] == [1, 45, 756, 5932]
