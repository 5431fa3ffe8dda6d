"""Policy evaluation against a brute force in exact Fractions over ordered dice, and policy
iteration on a tiny game: never worse at any step, ending at the brute-force optimum."""
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest

from yatzy_core.engine.bruteforce import brute_force_value
from yatzy_core.game.dice import counts_of, dice_of
from yatzy_core.game.rules import Rules
from yatzy_core.game.scoring import Box, of_a_kind_sum, total, upper
from yatzy_core.game.states import StateSpace
from yatzy_core.players.policy_iteration import (FirstOpenBox, LookAhead, evaluate_policy,
                                                 policy_iteration)
from yatzy_core.players.strategies import Greedy

# 3 dice, two rerolls, an upper bonus of 5 once ones and threes reach 4 (the total matters)
GAME = Rules("policy-tiny", (Box("ones", upper(1), face=1, max_score=3), Box("threes", upper(3), face=3, max_score=9),
                             Box("one_pair", of_a_kind_sum(2)), Box("chance", total)),
             4, 5, n_dice=3, rolls_per_turn=3)


def brute_force_policy_value(player) -> dict[tuple[int, int], Fraction]:
    """V_pi(used boxes, upper total) for every turn start, by averaging over every ordered roll
    of the dice rerolled; only the player's choices are asked of the package."""
    rules, space = player.rules, player.space
    dice, full = rules.dice, (1 << rules.n_boxes) - 1

    @cache
    def value(mask: int, up: int) -> Fraction:
        if mask == full:
            return Fraction(0)
        state = space.index(mask, min(up, rules.upper_cap), 0)

        @cache
        def roll_from(kept: tuple[int, ...], rerolls: int) -> Fraction:
            outcomes = list(product(range(1, rules.faces + 1), repeat=rules.n_dice - len(kept)))
            acc = Fraction(0)
            for outcome in outcomes:
                roll = tuple(sorted(kept + outcome))
                r = dice.roll_index[counts_of(roll)]
                if rerolls:
                    k = int(player.keep(np.array([state]), np.array([r]), rerolls, None)[0])
                    acc += roll_from(tuple(dice_of(dice.keepers[k])), rerolls - 1)
                else:
                    b = int(player.box(np.array([state]), np.array([r]), None)[0])
                    box = rules.boxes[b]
                    points = rules.score(box.name, list(roll))
                    gained = points if box.face else 0
                    bonus = rules.upper_bonus if up < rules.upper_bonus_threshold <= up + gained else 0
                    acc += points + bonus + value(mask | 1 << b, up + gained)
            return acc / len(outcomes)
        return roll_from((), rules.rolls_per_turn - 1)
    return {(m, u): value(m, u) for m in range(full + 1) for u in range(rules.upper_cap + 1)
            if space.reachable[space.index(m, u, 0)]}


@pytest.mark.parametrize("player", [FirstOpenBox(GAME), Greedy(GAME)], ids=lambda p: p.name)
def test_policy_evaluation_matches_brute_force(player):
    fast = evaluate_policy(player)
    exact = brute_force_policy_value(player)
    space = StateSpace(GAME)
    worst = max(abs(fast[space.index(m, u, 0)] - float(v)) for (m, u), v in exact.items())
    assert worst < 1e-9
    assert len(exact) == int(space.reachable.sum())


def test_first_open_box_value_is_exact():
    """Never rerolling, boxes in card order: four independent rolls of three dice, so the value is
    E[ones] + E[threes] + E[pair] + E[chance] + 5 P(ones + threes >= 4), counted over 6**3 rolls."""
    rolls = list(product(range(1, 7), repeat=3))
    mean = lambda f: Fraction(sum(f(r) for r in rolls), len(rolls))
    pair = lambda r: max([2 * f for f in set(r) if r.count(f) >= 2], default=0)
    bonus = Fraction(sum(r.count(1) + 3 * s.count(3) >= 4 for r in rolls for s in rolls), len(rolls) ** 2)
    by_hand = mean(lambda r: r.count(1)) + mean(lambda r: 3 * r.count(3)) + mean(pair) + mean(sum) + 5 * bonus
    assert brute_force_policy_value(FirstOpenBox(GAME))[(0, 0)] == by_hand == Fraction(259919, 15552)
    assert round(float(evaluate_policy(FirstOpenBox(GAME))[0]), 4) == 16.7129


def test_policy_iteration_improves_every_state_and_ends_optimal():
    steps = policy_iteration(Greedy(GAME))
    reachable = StateSpace(GAME).reachable
    for before, after in zip(steps, steps[1:]):
        assert (after.values[reachable] >= before.values[reachable] - 1e-9).all()   # improvement theorem
    assert steps[-1].improved_states == 0 and len(steps) <= GAME.n_boxes + 2
    assert abs(steps[-1].start - float(brute_force_value(GAME))) < 1e-9
    assert steps[1].start > steps[0].start + 1                                       # a real gain


def test_look_ahead_needs_a_value_per_state():
    with pytest.raises(ValueError, match="values: need one per state"):
        LookAhead(GAME, np.zeros(3))


def test_the_policy_evaluation_lab_accepts_greedys_value_and_names_a_wrong_state():
    """Chapter 6b's lab check: greedy's exact values (an independent Fraction count) pass; the
    optimal values (a maximum where greedy's choice belongs) fail at a state that names its boxes."""
    from yatzy_core.engine.solver import solve
    from yatzy_core.labs import check_policy_evaluation

    game = Rules("lab", (Box("sixes", upper(6), face=6, max_score=18), Box("chance", total)), 0, 0,
                 n_dice=3, rolls_per_turn=2)
    greedy = brute_force_policy_value(Greedy(game))
    space = StateSpace(game)
    names = game.box_names

    def mask(open_boxes):
        return sum(1 << b for b, name in enumerate(names) if name not in open_boxes)

    right = check_policy_evaluation(lambda open_boxes: greedy[(mask(open_boxes), 0)], game)
    assert str(right) == "<lambda>: all 4 checks passed"
    best = solve(game, progress=False, backend="numpy").values
    wrong = str(check_policy_evaluation(lambda open_boxes: float(best[space.index(mask(open_boxes), 0, 0)]), game))
    assert wrong == "<lambda>: 1 of 4 checks passed; with {sixes} open: expected 37/9, got 11/2"
    assert greedy[(mask(frozenset({"chance"})), 0)] == Fraction(413, 36)      # the lab's docstring case


def test_a_policy_under_other_rules_needs_the_same_states_and_choices():
    from yatzy_core.game.rules import get_rules
    from yatzy_core.players.policy_iteration import UnderRules
    yatzy = get_rules("yatzy")
    chance = yatzy.with_(name="chance", boxes=yatzy.boxes[13:14], upper_bonus=0)
    with pytest.raises(ValueError, match="rules: 'yatzy' must have the states and choices of 'chance'"):
        UnderRules(FirstOpenBox(chance), yatzy)


def test_a_policy_under_rules_with_its_boxes_permuted_is_refused():
    """(full house, chance) -> (chance, full house): the same sizes, dice and rolls, but the
    policy's box 0 would name chance; refused by the box order."""
    from yatzy_core.game.rules import get_rules
    from yatzy_core.players.policy_iteration import UnderRules
    plain = get_rules("yahtzee-no-bonus")
    old = plain.with_(name="house, chance", boxes=plain.boxes[8:9] + plain.boxes[12:13], yahtzee_box=None,
                      upper_bonus=0)
    swapped = old.with_(name="chance, house", boxes=old.boxes[::-1])
    assert StateSpace(old).size == StateSpace(swapped).size
    with pytest.raises(ValueError, match="rules: 'chance, house' must have .* boxes in the same order"):
        UnderRules(FirstOpenBox(old), swapped)
    assert UnderRules(FirstOpenBox(old), old).rules is old
