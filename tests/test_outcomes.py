"""The compiled turn outcomes (outcomes.py) are turn_forward.turn_outcomes exactly: the same box, points
and next state for every final roll, probabilities to 1e-12, on thousands of states of the real
rule sets (jokers forced and free, Yatzy) and on small games with forced order and odd dice."""
import numpy as np
import pytest

from yatzy_core.engine.compiled import outcomes
from yatzy_core.engine import turn_forward as policy
from yatzy_core.game.rulefile import loads
from yatzy_core.game.rules import get_rules
from yatzy_core.engine.solver import solve

FIELDS = ("box", "points", "upper_bonus", "yahtzee_bonus", "next_state")


def assert_same(space, values, states):
    want = policy.turn_outcomes(space, values, states)
    got = outcomes.compiled_turn_outcomes(space, values, states)
    for name in FIELDS:
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert np.abs(got.prob - want.prob).max() <= 1e-12


def sample(space, per_layer, seed):
    """Random reachable states of every layer, and every state of a few box sets (full lane
    groups), in a shuffled order with repeats."""
    rng = np.random.default_rng(seed)
    layers = [space.layer(k) for k in range(space.n_boxes)]
    picked = [rng.choice(layer, min(per_layer, len(layer)), replace=False) for layer in layers]
    masks = space.decode(layers[space.n_boxes // 2])[0]
    for mask in rng.choice(np.unique(masks), 3, replace=False):
        picked.append(layers[space.n_boxes // 2][masks == mask])
    states = np.concatenate(picked)
    return rng.permutation(np.r_[states, states[:17]])


@pytest.mark.parametrize("name", ["yahtzee", "yahtzee-verhoeff", "yatzy"])
def test_real_rule_sets(solutions, name):
    solution = solutions(name)
    assert_same(solution.space, solution.values, sample(solution.space, 150, 11))


def test_every_state_with_the_yahtzee_box_filled(solutions):
    """Jokers and Yahtzee bonuses: every reachable state of layer 12 of yahtzee (forced joker)."""
    solution = solutions("yahtzee")
    space = solution.space
    layer = space.layer(12)
    assert_same(space, solution.values, layer)


def small(base, name, keep, **changes):
    rules = get_rules(base)
    return rules.with_(name=name, boxes=tuple(b for b in rules.boxes if b.name in keep), **changes)


def box(name, scorer, **params):
    lines = [f'name = "{name}"', f'scorer = "{scorer}"'] + [f"{k} = {v}" for k, v in params.items()]
    return "\n[[boxes]]\n" + "\n".join(lines) + "\n"


SMALL = [
    small("yahtzee", "small-forced", ("ones", "twos", "threes", "full_house", "yahtzee", "chance"),
          upper_bonus_threshold=12),
    small("yahtzee-verhoeff", "small-free", ("ones", "fours", "small_straight", "yahtzee", "chance"),
          upper_bonus_threshold=8),
    small("yatzy", "small-yatzy", ("ones", "twos", "one_pair", "full_house", "yatzy"),
          upper_bonus_threshold=6),
    small("yatzy", "small-in-order", ("ones", "twos", "one_pair", "full_house", "yatzy", "chance"),
          upper_bonus_threshold=6, forced_order=True),
    loads('name = "two-dice"\nn_dice = 2\nrolls_per_turn = 4\nupper_bonus = 4\n'
          'upper_bonus_threshold = 5\nyahtzee_box = "doubles"\nyahtzee_bonus = 10\n'
          + box("twos", "upper", face=2) + box("doubles", "all_same", points=8)
          + box("sixes", "upper", face=6) + box("straight", "straight", faces=[3, 4], points=7)),
    loads('name = "one-roll"\nn_dice = 3\nfaces = 4\nrolls_per_turn = 1\nupper_bonus = 3\n'
          'upper_bonus_threshold = 4\n' + box("ones", "upper", face=1) + box("fours", "upper", face=4)
          + box("chance", "chance")),
]


@pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.name)
def test_small_games(rules):
    solution = solve(rules, progress=False)
    space = solution.space
    states = np.flatnonzero(space.reachable & (space.boxes_used.repeat(space.n_upper * space.n_flags)
                                               < space.n_boxes))
    assert_same(space, solution.values, states)


def test_probabilities_sum_to_one_and_reproduce_the_values(solutions):
    solution = solutions("yatzy")
    space = solution.space
    states = sample(space, 40, 5)
    o = outcomes.compiled_turn_outcomes(space, solution.values, states)
    assert np.allclose(o.prob.sum(axis=0), 1, atol=1e-12)
    expected = (o.prob * (o.points + solution.values[o.next_state])).sum(axis=0)
    assert np.allclose(expected, solution.values[states], atol=1e-9)


@pytest.mark.parametrize("name", ["yahtzee", "yatzy"])
def test_turn_choices_are_the_engines(solutions, name):
    """The compiled choices (the optimal player's tables) equal turn.evaluate's, box and keepers."""
    from yatzy_core.engine.compiled.outcomes import turn_choices
    from yatzy_core.engine.turn import box_values, evaluate
    solution = solutions(name)
    space = solution.space
    rng = np.random.default_rng(7)
    states = np.unique(rng.choice(np.flatnonzero(space.reachable), 300))
    states = states[space.boxes_used[space.decode(states)[0]] < space.n_boxes]
    box, keep = turn_choices(space, solution.values, states[::-1])
    turn = evaluate(space, box_values(space, solution.values, states[::-1]))
    assert np.array_equal(box, turn.box.T)
    assert all(np.array_equal(k, t.T) for k, t in zip(keep, turn.keep))
