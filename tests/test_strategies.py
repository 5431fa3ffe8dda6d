from fractions import Fraction

import numpy as np
import pytest

from yatzy_core.game.dice import counts_of, dice_of
from yatzy_core.players.batch import box_scores, fill, keepers_inside, now_points
from yatzy_core.players.planners import Heuristic, MCPlanner, TurnExpectation
from yatzy_core.game.rules import UPPER_NAMES, get_rules, rule_names
from yatzy_core.players.simulation import simulate
from yatzy_core.game.states import StateSpace
from yatzy_core.players.registry import get_strategy, make_player, strategy_names
from yatzy_core.players.strategies import Greedy, Optimal, Random, Strategic
from yatzy_core.engine.turn import best_subkeeper, box_values, evaluate, keeper_values

FAST = ["optimal", "random", "greedy", "strategic", "turn_expectation", "heuristic"]


class Recorder:
    """Wraps a player and writes down every final roll and chosen box."""

    def __init__(self, player):
        self.player, self.name, self.rules = player, player.name, player.rules
        self.turns = []

    def keep(self, states, rolls, rerolls, rng):
        return self.player.keep(states, rolls, rerolls, rng)

    def box(self, states, rolls, rng):
        boxes = np.asarray(self.player.box(states, rolls, rng))
        self.turns.append((np.array(rolls), boxes.copy()))
        return boxes


def check_games(rules, frame, turns) -> int:
    """Replay every game with the rules as printed (independently of batch.py and turn.py);
    return how many joker rolls were met."""
    jokers = 0
    upper_names = [b.name for b in rules.boxes if b.is_upper]
    lower_names = [b.name for b in rules.boxes if not b.is_upper]
    for g in range(len(frame)):
        used, holds_50, bonus = set(), False, 0
        for rolls, boxes in turns:
            dice = dice_of(rules.dice.rolls[rolls[g]])
            box = rules.boxes[boxes[g]]
            assert box.name not in used, f"game {g}: {box.name} filled twice"
            points = rules.score(box.name, dice)
            if rules.tracks_yahtzee_bonus and len(set(dice)) == 1 and rules.yahtzee_box in used:
                jokers += 1
                bonus += rules.yahtzee_bonus if holds_50 else 0
                matching = UPPER_NAMES[dice[0] - 1]
                if rules.joker == "forced":
                    if matching not in used:
                        assert box.name == matching, f"game {g}: forced joker must take {matching}"
                    elif any(n not in used for n in lower_names):
                        assert not box.is_upper, f"game {g}: forced joker must take a lower box"
                    if not box.is_upper and box.joker_value is not None:
                        points = box.joker_value
                elif rules.joker == "free" and matching in used and box.joker_value is not None:
                    points = box.joker_value
            assert frame.loc[g, box.name] == points, (g, box.name, dice)
            holds_50 |= box.name == rules.yahtzee_box and points > 0
            used.add(box.name)
        assert used == set(rules.box_names)
        upper = frame.loc[g, upper_names].sum()
        earned = rules.tracks_upper and upper >= rules.upper_bonus_threshold
        assert frame.loc[g, "upper_bonus"] == (rules.upper_bonus if earned else 0)
        assert frame.loc[g, "yahtzee_bonus"] == bonus
        assert frame.loc[g, "total"] == frame.loc[g].drop("total").sum()
    return jokers


@pytest.mark.parametrize("rules_name", rule_names())
def test_every_strategy_plays_legal_games(solutions, rules_name):
    rules = get_rules(rules_name)
    jokers = 0
    for name in FAST + ["mc_planner"]:
        options = {"solution": solutions(rules_name)} if name == "optimal" else {}
        recorder = Recorder(get_strategy(name)(rules, **options))
        games = 3 if name == "mc_planner" else 150
        frame = simulate(rules, recorder, games=games, seed=11, progress=False)
        jokers += check_games(rules, frame, recorder.turns)
    if rules.tracks_yahtzee_bonus:
        assert jokers > 0  # the joker rule was exercised, not only allowed for


def test_lookup_by_name():
    assert set(strategy_names()) == {"optimal", "random", "greedy", "strategic",
                                     "turn_expectation", "heuristic", "mc_planner"}
    with pytest.raises(ValueError, match="unknown strategy 'best'.*greedy"):
        get_strategy("best")
    with pytest.raises(ValueError, match="plays 'yatzy', not 'yahtzee'"):
        make_player(Greedy("yatzy"), "yahtzee")
    assert isinstance(make_player("random", "yatzy"), Random)


def test_box_scores_are_the_box_values_of_a_finished_game():
    """With every later state worth 0, a box's value is the points it earns now: box_scores
    (box only) and now_points (with the upper bonus) add up to it with the Yahtzee bonus."""
    for name in ("yahtzee", "yahtzee-verhoeff", "yatzy"):
        rules = get_rules(name)
        space = StateSpace(rules)
        rng = np.random.default_rng(5)
        states = np.concatenate([rng.choice(space.layer(k), 6) for k in range(1, rules.n_boxes)])
        points = box_values(space, np.zeros(space.size), states)     # (boxes, rolls, S)
        rolls = np.arange(rules.dice.n_rolls)
        for s, state in enumerate(states):
            here = np.full(len(rolls), state)
            mine, now = box_scores(space, here, rolls), now_points(space, here, rolls)
            assert (np.isfinite(mine) == np.isfinite(points[:, :, s].T)).all()
            ok = np.isfinite(mine)
            kind = np.isin(rolls, rules.n_of_a_kind_rolls)[:, None] & ok
            extra = points[:, :, s].T[ok] - now[ok]
            assert set(np.unique(extra)) <= {0.0, float(rules.yahtzee_bonus)}
            assert not extra[~kind[ok]].any()              # only n of a kind earns more
            assert (now >= mine)[ok].all()


def test_fill_refuses_a_used_box():
    rules = get_rules("yahtzee")
    space = StateSpace(rules)
    state = space.index(1 << rules.box_index("chance"), 0, 0)
    roll = rules.dice.roll_index[counts_of([1, 2, 3, 4, 6])]
    with pytest.raises(ValueError, match="'chance' is used or not allowed"):
        fill(space, np.array([state]), np.array([roll]), np.array([rules.box_index("chance")]))


def _box(player, dice, state=0):
    roll = player.rules.dice.roll_index[counts_of(dice)]
    return player.rules.box_names[player.box(np.array([state]), np.array([roll]), None)[0]]


def test_greedy_and_strategic_box_choice():
    greedy, strategic = Greedy("yahtzee"), Strategic("yahtzee")
    assert _box(greedy, [5, 5, 5, 5, 2]) == "three_of_a_kind"      # 22 beats fives' 20
    assert _box(strategic, [5, 5, 5, 5, 2]) == "fives"             # 20/25 beats 22/30
    space = greedy.space
    near_bonus = space.index(0, 60, 0)                             # 20 fives + 35 bonus now
    assert _box(greedy, [5, 5, 5, 5, 2], near_bonus) == "fives"
    assert _box(greedy, [1, 2, 3, 4, 6]) == "small_straight"


def test_random_is_uniform_over_legal_boxes_and_dice():
    rules = get_rules("yahtzee")
    player, space = Random(rules), StateSpace(rules)
    open_ = [rules.box_index(n) for n in ("ones", "full_house", "chance")]
    mask = sum(1 << b for b in range(rules.n_boxes) if b not in open_)
    n = 30_000
    roll = rules.dice.roll_index[counts_of([2, 2, 3, 3, 3])]
    rng = np.random.default_rng(0)
    boxes = player.box(np.full(n, space.index(mask, 0, 0)), np.full(n, roll), rng)
    counts = np.bincount(boxes, minlength=rules.n_boxes)
    assert set(np.flatnonzero(counts)) == set(open_)
    assert np.allclose(counts[open_] / n, 1 / 3, atol=0.015)         # sd 0.0027
    kept = rules.dice.keeper_size[player.keep(np.zeros(n, int), np.full(n, roll), 2, rng)]
    assert abs(kept.mean() - 2.5) < 0.05                            # each die kept w.p. 1/2


def test_optimal_decisions_are_the_best_by_the_solver_values(solutions):
    rules = get_rules("yahtzee")
    solution = solutions("yahtzee")
    player, space, dice = Optimal(rules, solution), solution.space, rules.dice
    rng = np.random.default_rng(2)
    states = np.concatenate([rng.choice(space.layer(k), 3) for k in (0, 4, 9, 12)])
    rolls = rng.integers(0, dice.n_rolls, len(states))
    finals = box_values(space, solution.values, states)                 # (boxes, rolls, S)
    keep0 = keeper_values(space, finals.max(axis=0))
    keep1 = keeper_values(space, best_subkeeper(space, keep0))
    chosen = {0: player.box(states, rolls, rng), 1: player.keep(states, rolls, 1, rng),
              2: player.keep(states, rolls, 2, rng)}
    for s in range(len(states)):
        inside = [k for k in range(dice.n_keepers) if (dice.keepers[k] <= dice.rolls[rolls[s]]).all()]
        assert finals[chosen[0][s], rolls[s], s] == pytest.approx(finals[:, rolls[s], s].max(), abs=1e-9)
        assert keep0[chosen[1][s], s] == pytest.approx(keep0[inside, s].max(), abs=1e-9)
        assert keep1[chosen[2][s], s] == pytest.approx(keep1[inside, s].max(), abs=1e-9)


def test_heuristic_par_of_the_yahtzee_box_is_the_chance_of_a_yahtzee():
    heuristic = Heuristic("yahtzee")
    p = Fraction(2783176, 60466176)  # P(five of a kind in three rolls, keeping the most common face)
    assert heuristic.par[heuristic.rules.box_index("yahtzee")] == pytest.approx(50 * float(p), abs=1e-12)


def test_turn_expectation_discounts_low_scores():
    player = TurnExpectation("yahtzee")
    finals = player.final_values(np.array([0]))
    rules = player.rules
    roll = rules.dice.roll_index[counts_of([1, 1, 1, 1, 2])]
    assert finals[rules.box_index("chance"), roll, 0] == pytest.approx(6 * np.exp(-24 / 100))
    assert finals[rules.box_index("ones"), roll, 0] == pytest.approx(4 * np.exp(-1 / 100))
    assert _box(player, [6, 6, 6, 6, 6]) == "yahtzee"


def test_mc_planner_keeps_a_sure_thing_and_checks_options():
    player = MCPlanner("yahtzee", samples=10, depth=2)
    roll = player.rules.dice.roll_index[counts_of([6, 6, 6, 6, 6])]
    keeper = player.keep(np.array([0]), np.array([roll]), 2, np.random.default_rng(0))[0]
    assert dice_of(player.rules.dice.keepers[keeper]) == (6, 6, 6, 6, 6)
    with pytest.raises(ValueError, match="box_rule"):
        MCPlanner("yahtzee", box_rule="best")
    with pytest.raises(ValueError, match="depth 1 or 2"):
        MCPlanner("yahtzee", depth=3)


def test_optimal_makes_the_choices_whose_exact_distribution_policy_computes(solutions):
    solution = solutions("yahtzee-verhoeff")
    player, space = Optimal("yahtzee-verhoeff", solution), solution.space
    rng = np.random.default_rng(8)
    states = np.unique(np.concatenate([rng.choice(space.layer(k), 4) for k in range(13)]))
    turn = evaluate(space, box_values(space, solution.values, states))
    n_rolls = player.rules.dice.n_rolls
    per_game = np.repeat(states, n_rolls), np.tile(np.arange(n_rolls), len(states))
    assert (player.box(*per_game, rng).reshape(len(states), -1) == turn.box.T).all()
    for rerolls, table in enumerate(turn.keep, start=1):
        assert (player.keep(*per_game, rerolls, rng).reshape(len(states), -1) == table.T).all()
