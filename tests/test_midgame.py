"""Final-score distributions from the middle of a game (midgame.py): from the empty card they are
the full distribution; late in a game they equal a brute-force recursion over the numpy
reference policy (policy.turn_outcomes), with no rows, no representatives and no compiled code."""
from collections import defaultdict
from functools import cache

import numpy as np
import pytest

from yatzy_core.engine import turn_forward as policy
from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.objectives.distribution import forward
from yatzy_core.objectives.midgame import position_distribution


def brute_force(solution, state, points):
    """P(final score) by recursion over every turn outcome of the reference policy."""
    space, values = solution.space, solution.values

    @cache
    def future(s):
        if space.boxes_used[space.decode(s)[0]] == space.n_boxes:
            return {0: 1.0}
        o = policy.turn_outcomes(space, values, np.array([s]))
        out = defaultdict(float)
        for r in np.flatnonzero(o.prob[:, 0] > 0):
            for x, q in future(int(o.next_state[r, 0])).items():
                out[x + int(o.points[r, 0])] += o.prob[r, 0] * q
        return dict(out)

    dist = future(state)
    pmf = np.zeros(points + max(dist) + 1)
    for x, p in dist.items():
        pmf[points + x] += p
    return pmf


def state_of(solution, open_boxes, upper, flag=0):
    rules, space = solution.rules, solution.space
    mask = (1 << rules.n_boxes) - 1 - sum(1 << rules.box_index(b) for b in open_boxes)
    state = int(space.index(mask, upper, flag))
    assert space.reachable[state]
    return state


def test_from_the_empty_card_it_is_the_full_distribution(solutions):
    solution = solutions("yahtzee-no-bonus")
    full = forward(solution).distribution.probabilities
    here = position_distribution(solution.space.index(0, 0, 0), solution).probabilities
    assert len(here) == len(full) and np.abs(here - full).max() < 1e-15


@pytest.mark.parametrize("name, open_boxes, upper, flag, points", [
    ("yahtzee", ("fours", "full_house", "chance"), 50, 1, 180),          # jokers, bonus in reach
    ("yahtzee-verhoeff", ("sixes", "yahtzee", "small_straight"), 45, 0, 150),
    ("yatzy", ("sixes", "two_pairs", "yatzy"), 40, 0, 170),
    ("yatzy", ("ones", "chance", "full_house"), 10, 0, 120),              # bonus out of reach
])
def test_late_positions_match_brute_force(solutions, name, open_boxes, upper, flag, points):
    solution = solutions(name)
    state = state_of(solution, open_boxes, upper, flag)
    got = position_distribution(state, solution, points=points).probabilities
    want = brute_force(solution, state, points)
    assert len(got) == len(want) and np.abs(got - want).max() < 1e-12
    mean = float(np.arange(len(got)) @ got)
    assert mean == pytest.approx(points + solution.values[state], abs=1e-9)


def test_inside_a_turn(solutions):
    """Dice on the table: the mean is the points so far plus the advisor's best expectation,
    and after the last roll the distribution is that of the best box's next state, shifted."""
    solution = solutions("yatzy")
    used = [b for b in solution.rules.box_names if b not in ("sixes", "two_pairs", "yatzy")]
    for dice, rolls_left in (("66612", 2), ("66612", 1), ("66655", 0), ("12345", 0)):
        position = Position.make("yatzy", used=used, upper_total=40, dice=dice, rolls_left=rolls_left)
        d = position_distribution(position, solution, points=170)
        assert d.probabilities.sum() == pytest.approx(1, abs=1e-12)
        assert d.mean == pytest.approx(170 + advise(position, solution)[0].expected, abs=1e-9)
    best = advise(position, solution)[0]      # 1 2 3 4 5 after the last roll: no box scores
    after = Position.make("yatzy", used=used + [best.box], upper_total=40, dice="11111").state()
    shifted = position_distribution(after, solution, points=170).probabilities
    assert np.abs(d.probabilities - shifted).max() < 1e-15


def test_the_last_box(solutions):
    solution = solutions("yahtzee")
    position = Position.make("yahtzee", used=set(solution.rules.box_names) - {"chance"},
                             dice="66665", rolls_left=0)
    d = position_distribution(position, solution, points=200)
    assert d.max_score == 229 and d.probabilities[229] == 1


def test_bad_arguments(solutions):
    solution = solutions("yatzy")
    state = state_of(solution, ("sixes", "two_pairs", "yatzy"), 40)
    with pytest.raises(ValueError, match="points must be"):
        position_distribution(state, solution, points=-1)
    with pytest.raises(ValueError, match="not a reachable turn state"):
        position_distribution(solution.space.size, solution)
    with pytest.raises(TypeError, match="where must be"):
        position_distribution("start", solution)
    position = Position.make("yahtzee", dice="12345")
    with pytest.raises(ValueError, match="solution is for rules 'yatzy'"):
        position_distribution(position, solution)
    with pytest.raises(ValueError, match="less than the upper total"):
        position_distribution(Position.make("yatzy", used={"sixes"}, upper_total=30, dice="12345"),
                              solution, points=20)
