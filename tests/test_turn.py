"""The turn engine: every objective against an independent brute force on a tiny game, values
with a vector per state, score_box on the joker rule's cases, and the one tie rule."""
from fractions import Fraction
from functools import cache
from itertools import product
from math import exp

import numpy as np
import pytest

from yatzy_core.engine.bruteforce import brute_force_value
from yatzy_core.game.rules import Rules, get_rules
from yatzy_core.game.scoring import Box, n_of_a_kind_fixed, total, upper
from yatzy_core.game.states import StateSpace
from yatzy_core.engine.choice import ranked
from yatzy_core.engine.turn import (MEAN_LANES, TIE, TargetLanes, ExpUtility, box_values, evaluate, preferred_box,
                                    preferred_keeper, score_box, turn_values)

# two dice, three rolls a turn, an upper bonus of 10 once ones + twos reach 4
TINY = Rules("tiny", (Box("ones", upper(1), face=1, max_score=2), Box("twos", upper(2), face=2, max_score=4),
                      Box("pair", n_of_a_kind_fixed(10)), Box("chance", total)),
             4, 10, n_dice=2, rolls_per_turn=3)


def solve_with(rules, objective):
    """Backward induction over the layers with the turn engine, for any objective."""
    space = StateSpace(rules)
    values = objective.terminal(space.size)
    for k in reversed(range(rules.n_boxes)):
        layer = space.layer(k)
        values[layer] = turn_values(space, values, layer, objective)
    return space, values


def brute(rules, combine=None, terminal=0.0, target=None):
    """Start-of-game value by plain recursion over ordered dice and kept dice positions: the best
    E[combine(points, value of the next state)], or, with `target`, the best P(score >= target)."""
    faces, n = rules.faces, rules.n_dice

    def points(b, dice, up):
        box = rules.boxes[b]
        p = rules.score(box.name, dice)
        bonus = rules.upper_bonus if box.is_upper and up < rules.upper_bonus_threshold <= up + p else 0
        return p + bonus, min(up + (p if box.is_upper else 0), rules.upper_bonus_threshold)

    @cache
    def state_value(used, up, need):
        if len(used) == rules.n_boxes:
            return terminal if target is None else float(need <= 0)

        def final(dice):
            best = -np.inf
            for b in set(range(rules.n_boxes)) - used:
                p, nxt = points(b, dice, up)
                if target is None:
                    best = max(best, combine(p, state_value(used | {b}, nxt, 0)))
                else:
                    best = max(best, state_value(used | {b}, nxt, max(need - p, 0)))
            return best

        @cache
        def roll_value(dice, rerolls):
            if rerolls == 0:
                return final(dice)
            best = -np.inf
            for keep in product((0, 1), repeat=n):
                kept = [d for d, k in zip(dice, keep) if k]
                new = list(product(range(1, faces + 1), repeat=n - len(kept)))
                best = max(best, sum(roll_value(tuple(sorted(kept + list(x))), rerolls - 1)
                                     for x in new) / len(new))
            return best

        first = list(product(range(1, faces + 1), repeat=n))
        return sum(roll_value(tuple(sorted(d)), rules.rolls_per_turn - 1) for d in first) / len(first)

    return state_value(frozenset(), 0, target or 0)


def test_mean_matches_the_exact_brute_force():
    _, values = solve_with(TINY, MEAN_LANES)
    assert values[0] == pytest.approx(float(brute_force_value(TINY)), abs=1e-12)
    assert values[0] == pytest.approx(brute(TINY, lambda p, later: p + later), abs=1e-12)
    assert brute_force_value(TINY) > Fraction(16)   # a real game: more than chance twice


@pytest.mark.parametrize("theta", [0.2, -0.2])
def test_exponential_utility_matches_brute_force(theta):
    space, values = solve_with(TINY, ExpUtility(theta))
    sign = np.sign(theta)
    want = brute(TINY, lambda p, later: exp(theta * p) * later, terminal=sign)
    assert values[0] == pytest.approx(want, rel=1e-12)
    mean = solve_with(TINY, MEAN_LANES)[1][0]
    certainty = np.log(sign * values[0]) / theta     # risk seeking above the mean, averse below
    assert (certainty > mean) if theta > 0 else (certainty < mean)


def test_probability_of_reaching_a_target_matches_brute_force():
    space, values = solve_with(TINY, TargetLanes(30))
    assert values.shape == (space.size, 30)
    start = values[0]
    assert start[0] == 1.0 and (np.diff(start) <= 1e-15).all()
    for target in (5, 12, 18, 25):
        assert start[target] == pytest.approx(brute(TINY, target=target), abs=1e-12), target


def test_vector_values_choose_per_component():
    """Two identical components choose exactly as one scalar does (trailing axes of the engine)."""
    rules = get_rules("yatzy")
    space = StateSpace(rules)
    rng = np.random.default_rng(3)
    values = rng.random(space.size) * 50
    states = rng.choice(space.layer(9), 7)
    one = evaluate(space, box_values(space, values, states))
    two = evaluate(space, box_values(space, np.stack([values, values], axis=1), states))
    assert (two.box == one.box[..., None]).all()
    for a, b in zip(one.keep, two.keep):
        assert (b == a[..., None]).all()
    assert np.array_equal(two.start[:, 1], one.start)


def test_score_box_follows_the_forced_joker_rule():
    rules = get_rules("yahtzee")
    space = StateSpace(rules)
    sixes = rules.dice.roll_index[(0, 0, 0, 0, 0, 5)]
    every = np.arange(rules.n_boxes)

    def allowed(used, flag=1):
        mask = sum(1 << rules.box_index(n) for n in used + ["yahtzee"])
        s = score_box(space, space.index(mask, 0, flag), sixes, every)
        return {rules.box_names[b]: int(s.points[b]) for b in np.flatnonzero(s.allowed)}

    assert allowed([]) == {"sixes": 130}                               # 30 + the 100 bonus
    lower = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight"]
    assert allowed(["sixes"]) == {name: 100 + p for name, p in
                                  zip(lower + ["chance"], (30, 30, 25, 30, 40, 30))}
    assert allowed(["sixes"] + lower + ["chance"], flag=0) == {n: 0 for n in
                                                                ("ones", "twos", "threes", "fours", "fives")}


def test_score_box_free_joker_and_the_upper_bonus():
    rules = get_rules("yahtzee-verhoeff")
    space = StateSpace(rules)
    twos = rules.dice.roll_index[(0, 5, 0, 0, 0, 0)]
    mask = 1 << rules.yahtzee_index
    straight = rules.box_index("large_straight")
    open_twos = score_box(space, space.index(mask, 0, 1), twos, straight)
    used_twos = score_box(space, space.index(mask | 1 << rules.box_index("twos"), 0, 1), twos, straight)
    assert (int(open_twos.box_points), int(used_twos.box_points)) == (0, 40)   # joker only once twos is used
    fives = rules.box_index("fives")
    s = score_box(space, space.index(0, 60, 0), rules.dice.roll_index[(0, 0, 0, 0, 5, 0)], fives)
    assert (int(s.box_points), int(s.upper_bonus), space.decode(s.next_state)[1]) == (25, 35, 63)


def test_one_tie_rule():
    assert list(preferred_box(np.array([[1.0, 3.0], [1.0 + TIE / 2, 3.0 + 2 * TIE]]))) == [0, 1]
    assert ranked([5.0, 5.0 + TIE / 2, 4.0], ["b", "a", "c"]) == [1, 0, 2]
    space = StateSpace(get_rules("yatzy"))
    dice = space.rules.dice
    keep = np.zeros((dice.n_keepers, 1))
    roll = dice.roll_index[(2, 0, 0, 0, 0, 3)]              # 1 1 6 6 6, every keeper worth 0
    assert preferred_keeper(space, keep, np.zeros((dice.n_rolls, 1)))[roll, 0] == dice.roll_offset + roll


def test_scored_boxes_are_the_boxes_box_values_scores():
    """Given once for several tables (a saved-roll turn), the scored boxes give the same values as
    box_values scoring them itself; made for other states, they are refused by name."""
    from yatzy_core.engine.turn import scored_boxes
    space = StateSpace(get_rules("yahtzee"))
    values = np.random.default_rng(5).random(space.size)
    states = np.array([0, space.index(1 << space.rules.yahtzee_index, 10, 1)])
    scored = scored_boxes(space, states)
    assert np.array_equal(box_values(space, values, states, scored=scored), box_values(space, values, states))
    with pytest.raises(ValueError, match="scored: made for 2 states, not these 1"):
        box_values(space, values, states[:1], scored=scored)
    with pytest.raises(ValueError, match="scored: made for 1 states, not these 2"):   # would broadcast
        box_values(space, values, states, scored=scored_boxes(space, states[:1]))
