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
from yatzy_core.engine.solutions import solution_for
from yatzy_core.game.dice import counts_of, dice_of
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
    position = Position.make("yahtzee", used=set(solution.rules.box_names) - {"chance"}, upper_total=63,
                             dice="66665", rolls_left=0)
    d = position_distribution(position, solution, points=200)        # at most 253: 63 + 35 + 155
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
    with pytest.raises(ValueError, match="less than the 30 this card holds already"):
        position_distribution(Position.make("yatzy", used={"sixes"}, upper_total=30, dice="12345"),
                              solution, points=20)


# ---- the distribution of the policy being played: a target, a score to beat, a risk appetite -----

from test_turn import TINY  # noqa: E402
from yatzy_core.objectives.midgame import risk_position_distribution, target_position_distribution  # noqa: E402
from yatzy_core.objectives.appetite import Risk  # noqa: E402
from yatzy_core.objectives.goals import AtLeast  # noqa: E402
from yatzy_core.objectives.risk import risk_table  # noqa: E402
from yatzy_core.objectives.targets import solve_targets  # noqa: E402

TINY_MID = [("12", 2), ("22", 1), ("66", 0), ("15", 2)]   # dice, rerolls left; ones scored (1)


@pytest.fixture(scope="module")
def tiny_targets():
    return solve_targets(TINY, 45)


@pytest.mark.parametrize("dice, rolls_left", TINY_MID)
@pytest.mark.parametrize("goal", [10, 18, 25, 31])
def test_the_target_policy_from_inside_a_turn_reaches_the_advised_probability(tiny_targets, dice, rolls_left, goal):
    position = Position.make(TINY, used={"ones"}, upper_total=1, dice=dice, rolls_left=rolls_left)
    d = target_position_distribution(position, tiny_targets, goal, points=1)
    best = advise(position, objective=AtLeast(goal, 1))[0].probability
    assert d.probabilities.sum() == pytest.approx(1, abs=1e-12) and d.probabilities[:1].sum() == 0
    assert d.p_at_least(goal) == pytest.approx(best, abs=1e-9)
    assert 0.01 < best < 0.99 or goal != 25       # a goal these dice can still miss and make


@pytest.mark.parametrize("goal", [12, 20, 28])
def test_the_target_policy_from_a_turn_start_reaches_the_tables_value(tiny_targets, goal):
    state = int(tiny_targets.space.index(0b0010, 4, 0))          # twos scored (4 points)
    d = target_position_distribution(state, tiny_targets, goal, points=4)
    assert d.p_at_least(goal) == pytest.approx(float(tiny_targets.vector(state)[goal - 4]), abs=1e-9)


def test_the_target_policy_on_a_late_yahtzee_card_from_inside_a_turn(solutions):
    rules = solutions("yahtzee-no-bonus").rules
    open_boxes = {"fours", "full_house", "chance"}
    position = Position.make(rules, used=set(rules.box_names) - open_boxes, upper_total=52,
                             dice="44612", rolls_left=2)
    targets = solve_targets(rules, 80, within=position.mask)
    for goal in (230, 250, 265):
        d = target_position_distribution(position, targets, goal, points=190)
        best = advise(position, objective=AtLeast(goal, 190))[0].probability
        assert d.p_at_least(goal) == pytest.approx(best, abs=1e-9) and 0 < best < 1


def test_playing_for_a_goal_differs_from_the_mean(tiny_targets, solutions):
    """Played for 31 the tiny game's spread is not the max-mean one: the policy is the target's."""
    position = Position.make(TINY, used={"ones"}, upper_total=1, dice="15", rolls_left=2)
    bold = target_position_distribution(position, tiny_targets, 31, points=1)
    mean = position_distribution(position, solution_for(TINY), points=1)
    assert bold.p_at_least(31) > mean.p_at_least(31) + 1e-3 and bold.mean < mean.mean


@pytest.mark.parametrize("theta", [-0.3, -0.05, 0.05, 0.3])
@pytest.mark.parametrize("dice, rolls_left", TINY_MID)
def test_the_risk_policy_gives_back_the_advised_certainty_equivalent(theta, dice, rolls_left):
    position = Position.make(TINY, used={"ones"}, upper_total=1, dice=dice, rolls_left=rolls_left)
    table = risk_table(TINY, theta, use_cache=False)
    u = table.utilities
    d = risk_position_distribution(position, table, points=1).probabilities
    rest = np.arange(len(d)) - 1                                  # points still to come
    ce = np.log(d @ np.exp(theta * rest)) / theta
    assert ce == pytest.approx(advise(position, objective=Risk(theta))[0].certainty_equivalent, abs=1e-9)
    start = risk_position_distribution(int(position.state()), table, points=1).probabilities
    ce0 = np.log(start @ np.exp(theta * (np.arange(len(start)) - 1))) / theta
    assert ce0 == pytest.approx(np.log(np.sign(theta) * u[position.state()]) / theta, abs=1e-9)


def advised_play(rules, objective, position, points):
    """P(final score) when every position from `position` on is played by `advise`'s first
    choice for `objective(points so far)`, by recursion over every roll: no rows, no compiled pass."""
    dice = rules.dice

    @cache
    def play(used, upper, flag, roll, rolls_left, points):
        here = Position(rules, used, upper, dice_of(dice.rolls[roll]), rolls_left, flag)
        best = advise(here, objective=objective(points))[0]
        if best.action == "keep":
            moves = [(used, upper, flag, r, p, rolls_left - 1, points)
                     for r, p in enumerate(dice.transition[dice.keeper_index[counts_of(best.keep, rules.faces)]])]
        else:
            nxt = here.score(best.box, next_dice=dice_of(dice.rolls[0]))
            points += here.points(best.box)
            if nxt is None:
                return {points: 1.0}
            moves = [(nxt.used, nxt.upper_total, nxt.yahtzee_bonus, r, p, rules.rolls_per_turn - 1, points)
                     for r, p in enumerate(dice.roll_probabilities())]
        out = defaultdict(float)
        for used2, upper2, flag2, r, p, left, pts in moves:
            if p > 0:
                for x, q in play(used2, upper2, flag2, r, left, pts).items():
                    out[x] += p * q
        return dict(out)
    dist = play(position.used, position.upper_total, position.yahtzee_bonus, position.roll,
                position.rolls_left, points)
    pmf = np.zeros(max(dist) + 1)
    for x, p in dist.items():
        pmf[x] += p
    return pmf


def test_the_policies_match_advise_played_out_by_brute_force(tiny_targets):
    """The tiny game's last two boxes, played position by position by `advise`."""
    position = Position.make(TINY, used={"ones", "twos"}, upper_total=3, dice="22", rolls_left=1)
    want = advised_play(TINY, lambda points: AtLeast(22, points), position, 3)   # the card holds 3
    got = target_position_distribution(position, tiny_targets, 22, points=3).probabilities
    assert len(got) == len(want) and np.abs(got - want).max() < 1e-12
    assert 0.01 < got[22:].sum() < 0.99
    want = advised_play(TINY, lambda points: Risk(0.2), position, 3)
    got = risk_position_distribution(position, risk_table(TINY, 0.2, use_cache=False), points=3).probabilities
    assert len(got) == len(want) and np.abs(got - want).max() < 1e-12


def test_the_points_on_the_card_shift_the_distribution(tiny_targets):
    """The policies count from the position: 10 points more in the chance box are a shift of 10;
    points the card cannot hold (500 with ones and chance used) are refused (issue 36)."""
    position = Position.make(TINY, used={"ones", "chance"}, upper_total=1, dice="15", rolls_left=2)
    far = target_position_distribution(position, tiny_targets, 38, points=13).probabilities
    near = target_position_distribution(position, tiny_targets, 28, points=3).probabilities
    assert np.array_equal(far[10:], near) and far[:13].sum() == 0
    assert far[38:].sum() == pytest.approx(advise(position, objective=AtLeast(38, 13))[0].probability, abs=1e-9)
    with pytest.raises(ValueError, match="points 500 is more than this card can hold: at most 13"):
        target_position_distribution(position, tiny_targets, 525, points=500)


@pytest.mark.parametrize("goal, dice, rolls_left", [(18, "12", 2), (25, "66", 0), (31, "15", 2), (60, "22", 1)])
def test_a_goals_outlook_and_play_are_the_base_class_over_its_data(goal, dice, rolls_left):
    """AtLeast and Beat keep no play or outlook of their own: the base class's, over the target
    table, its need lanes' goal and its hopeless test, give the target pass's distribution bit for
    bit (60 is out of reach: the best average's), and a whole game is `target_play`'s of its table."""
    from yatzy_core.objectives.goals import Beat
    from yatzy_core.objectives.objective import AdviceObjective, MEAN
    from yatzy_core.objectives.policy_play import target_play
    from yatzy_core.objectives.targets import target_table
    assert all(vars(cls).get(name) is None for cls in (AtLeast, Beat) for name in ("play", "outlook"))
    position = Position.make(TINY, used={"ones"}, upper_total=1, dice=dice, rolls_left=rolls_left)
    goal_now = AtLeast(goal, 1)
    old = (MEAN.outlook(position, 1) if goal_now.hopeless(position) else
           target_position_distribution(position, goal_now.table(position), goal, points=1))
    for objective in (AtLeast(goal), Beat(goal - 1, points=7)):
        assert type(objective).outlook is AdviceObjective.outlook
        np.testing.assert_array_equal(objective.outlook(position, 1).probabilities, old.probabilities)
    assert goal_now.hopeless(position) == (goal == 60)
    if goal <= 45:
        play = AtLeast(goal).play(TINY).distribution.probabilities
        whole = target_play(target_table(TINY, goal), goal).distribution.probabilities
        np.testing.assert_array_equal(play, whole)
