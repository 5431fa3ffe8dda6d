"""The play-along coach, move by move: losses are the advisor's, illegal moves change nothing."""
import dataclasses

import numpy as np
import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.advice.coach import Game, play_optimally
from yatzy_core.engine.turn import TIE


@pytest.fixture
def yatzy(solutions):
    return solutions("yatzy")


def new_game(solution, **kw):
    return Game(solution.rules, solution=solution, **kw)


def snapshot(game):
    """Everything a move may change."""
    return (game.position, len(game.decisions), game.total, dict(game.scores),
            game.rng.bit_generator.state)


def test_optimal_seeded_game_loses_nothing(yatzy):
    game = play_optimally("yatzy", seed=2024, solution=yatzy)
    s = game.summary()
    assert game.over and len(game.scores) == len(yatzy.rules.box_names)
    assert s.moves == len(game.decisions) == s.optimal_moves
    assert len(yatzy.rules.box_names) <= s.moves <= 3 * len(yatzy.rules.box_names)
    assert s.total_loss == pytest.approx(0, abs=1e-9) and s.costliest == ()
    assert s.total == game.total == sum(game.scores.values()) + game.bonus
    assert s.bonus == game.bonus == sum(d.bonus for d in game.decisions)
    assert all(0 <= game.scores[b.name] <= b.max_score for b in yatzy.rules.boxes)
    assert s.optimal_expected == yatzy.expected_score
    assert s.luck == pytest.approx(s.total - yatzy.expected_score)
    assert "Every move was optimal." in str(s)
    # the same seed deals the same dice, so the same game
    again = play_optimally("yatzy", seed=2024, solution=yatzy)
    assert [d.label for d in again.decisions] == [d.label for d in game.decisions]
    assert again.total == game.total


def test_each_move_is_checked_against_advise(yatzy):
    game = new_game(yatzy, seed=5)
    while not game.over:
        position = game.position
        ranked = advise(position, yatzy)
        decision = game.play(ranked[0])
        assert decision.position == position and decision.best == ranked[0]
        assert decision.choice.expected == pytest.approx(ranked[0].expected, abs=1e-9)


def test_a_bad_keep_records_the_advisors_loss(yatzy):
    game = new_game(yatzy, dice="11112")
    ranked = advise(Position.make("yatzy", dice="11112", rolls_left=2), yatzy)
    reported = next(a for a in ranked if a.keep == (2,))
    decision = game.keep([2], rolled="3456")
    assert decision.loss == reported.loss > 1.0 and not decision.optimal
    assert decision.best.label == ranked[0].label == "keep 1 1 1 1"
    assert game.position.dice == (2, 3, 4, 5, 6) and game.position.rolls_left == 1
    assert "optimal was keep 1 1 1 1" in str(decision)


def test_a_bad_box_records_the_advisors_loss(yatzy):
    game = new_game(yatzy, dice="11111")
    game.keep("11111", rolled="")
    game.keep("11111", rolled="")
    ranked = advise(game.position, yatzy)
    chance = next(a for a in ranked if a.box == "chance")
    decision = game.score("chance", next_dice="23456")
    assert decision.loss == chance.loss > 0 and decision.points == 5 == game.total
    assert ranked[0].box == "yatzy" and decision.best == ranked[0]
    assert str(decision).endswith(f"score Chance, optimal was score Yatzy (lost {decision.loss:.2f} points)")


def test_scoring_early_costs_against_the_best_keeper(yatzy):
    game = new_game(yatzy, dice="12345")
    position = game.position
    best = advise(position, yatzy)[0]
    as_last = advise(dataclasses.replace(position, rolls_left=0), yatzy)
    small = next(a for a in as_last if a.box == "small_straight")
    decision = game.score("small_straight", next_dice="66666")
    assert decision.loss == pytest.approx(best.expected - small.expected, abs=1e-12)
    assert decision.best == best and decision.points == 15
    assert game.position.rolls_left == 2 and game.position.dice == (6, 6, 6, 6, 6)


def test_summary_lists_the_three_costliest(yatzy):
    game = new_game(yatzy, seed=9)
    moves = 0
    while not game.over:
        ranked = game.advice()
        moves += 1
        game.play(ranked[-1] if moves % 7 == 0 else ranked[0])   # every 7th move the worst choice
    s = game.summary()
    losses = [d.loss for d in game.decisions]
    bad = sorted((d for d in game.decisions if d.loss > TIE), key=lambda d: -d.loss)
    assert s.optimal_moves == sum(loss <= TIE for loss in losses) == s.moves - len(bad)
    assert s.total_loss == pytest.approx(sum(losses)) and s.total_loss > 0
    assert [d.loss for d in s.costliest] == [d.loss for d in bad[:3]]
    for d in s.costliest:
        assert d.best == advise(d.position, yatzy)[0]
        assert f"optimal was {d.best.text}" in str(s)


def test_upper_bonus_is_part_of_the_total(yatzy):
    game = new_game(yatzy, dice="11112")
    names = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    for face, name in enumerate(names, 1):
        nxt = f"{face + 1}" * 4 + "1" if face < 6 else "12345"
        game.score(name, next_dice=nxt)
    assert game.scores["ones"] == 4 and game.scores["sixes"] == 24
    assert sum(4 * f for f in range(1, 7)) == 84 >= yatzy.rules.upper_bonus_threshold
    assert [d.bonus for d in game.decisions] == [0, 0, 0, 0, 0, 50]   # 60 after fives, 84 after sixes
    assert game.bonus == yatzy.rules.upper_bonus == 50 and game.total == 84 + 50


def test_yahtzee_bonus_and_forced_joker(solutions):
    game = new_game(solutions("yahtzee"), dice="66666")
    assert game.score("yahtzee", next_dice="55555").points == 50
    with pytest.raises(ValueError, match="not allowed by the joker rule"):
        game.score("chance")                                 # forced joker: the fives box first
    d = game.score("fives", next_dice="12345")
    assert (d.points, d.bonus, game.scores["fives"]) == (125, 100, 25)
    assert game.total == 175 and game.bonus == 100


@pytest.mark.parametrize("move, message", [
    (lambda g: g.keep("66"), "cannot keep"),
    (lambda g: g.keep("11", rolled="23"), "rerolls 3"),
    (lambda g: g.score("no_such_box"), "no_such_box"),
])
def test_illegal_moves_raise_and_change_nothing(yatzy, move, message):
    game = new_game(yatzy, seed=3, dice="11123")
    before = snapshot(game)
    with pytest.raises(ValueError, match=message):
        move(game)
    assert snapshot(game) == before


def test_used_box_and_no_rerolls_are_refused(yatzy):
    game = new_game(yatzy, seed=3, dice="11123")
    game.score("ones", next_dice="11456")
    before = snapshot(game)
    with pytest.raises(ValueError, match="'ones' is already used"):
        game.score("ones")
    game.keep("11", rolled="111")
    game.keep("11111", rolled="")
    before = snapshot(game)
    with pytest.raises(ValueError, match="no rerolls left"):
        game.keep("11")
    assert snapshot(game) == before


def test_a_finished_game_refuses_moves(yatzy):
    game = play_optimally("yatzy", seed=1, solution=yatzy)
    with pytest.raises(ValueError, match="game is over"):
        game.keep("1")
    with pytest.raises(ValueError, match="game is over"):
        game.advice()


def test_solution_must_match_the_rules(solutions):
    with pytest.raises(ValueError, match="solution is for rules 'yatzy'"):
        Game("yahtzee", solution=solutions("yatzy"))


def test_a_generator_can_be_passed_as_seed(yatzy):
    a = new_game(yatzy, seed=np.random.default_rng(4))
    b = new_game(yatzy, seed=4)
    assert a.position == b.position
