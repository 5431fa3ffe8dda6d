"""Game logs: a coached game saved as JSON and rebuilt gives the same moves and the same grades;
a game played on paper, entered turn by turn, is graded like a coached one."""
import json

import numpy as np
import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.advice.coach import Game
from yatzy_core.advice.gamelog import dumps, loads, paper_game, replay, to_log, undo


@pytest.fixture
def yatzy(solutions):
    return solutions("yatzy")


def second_best_game(solution, seed):
    """A whole seeded game that always plays the advisor's second choice (so it loses points)."""
    game = Game(solution.rules, seed=seed, solution=solution)
    while not game.over:
        ranked = game.advice()
        game.play(ranked[1] if len(ranked) > 1 else ranked[0])
    return game


def grades(game):
    return [(d.turn, d.position, d.label, d.loss, d.points, d.bonus) for d in game.decisions]


def test_a_saved_game_reloads_with_the_same_grades(yatzy):
    game = second_best_game(yatzy, seed=5)
    text = dumps(game)
    again = loads(text, solution=yatzy)
    assert grades(again) == grades(game)                    # the same floats, not approximately
    assert again.summary() == game.summary()
    assert again.total == game.total and again.scores == game.scores and again.over
    assert again.summary().total_loss == sum(d.loss for d in game.decisions) > 0
    log = json.loads(text)
    assert log["rules"] == "yatzy" and len(log["moves"]) == len(game.decisions)
    assert "dice" not in log["moves"][-1]                    # the card is full: no next roll
    assert list(game.decisions[0].position.dice) == log["first_roll"]


def test_the_log_records_the_dice_after_each_move(yatzy):
    game = Game(yatzy.rules, dice="11112", solution=yatzy)
    game.keep("1111", rolled="6")
    game.score("ones", next_dice="23456")
    assert to_log(game)["moves"] == [{"keep": [1, 1, 1, 1], "dice": [1, 1, 1, 1, 6]},
                                     {"score": "ones", "dice": [2, 3, 4, 5, 6]}]
    unfinished = replay(to_log(game), solution=yatzy)
    assert unfinished.position == game.position and unfinished.total == 4


def test_undo_goes_back_one_move_and_keeps_the_random_stream(yatzy):
    game = Game(yatzy.rules, seed=3, solution=yatzy)
    before = game.position
    game.keep(game.position.dice[:2])
    back = undo(game)
    assert back.position == before and back.decisions == [] and back.rng is game.rng
    game.score("chance", next_dice="11111")
    back = undo(game)
    assert back.position == game.decisions[-1].position and back.total == 0 and len(back.decisions) == 1
    with pytest.raises(ValueError, match="game"):
        undo(Game(yatzy.rules, dice="12345", solution=yatzy))


def test_a_paper_game_is_graded_against_the_advisor(yatzy):
    game = paper_game("yatzy", """
        # turn 1: two rerolls, then a Yatzy
        11256 11 11136 111 11111 yatzy
        23456 large_straight
        12345 - 66665 6666 66666 sixes
    """, solution=yatzy)
    assert [d.label for d in game.decisions] == ["keep 1 1", "keep 1 1 1", "score yatzy",
                                                "score large_straight now", "reroll all", "keep 6 6 6 6",
                                                "score sixes"]
    assert game.scores == {"yatzy": 50, "large_straight": 20, "sixes": 30} and game.total == 100
    first = advise(Position.make("yatzy", dice="11256"), yatzy)
    assert game.decisions[0].loss == next(a.loss for a in first if a.keep == (1, 1))
    assert game.decisions[0].best == first[0]
    assert game.summary().total_loss == sum(d.loss for d in game.decisions)


@pytest.mark.parametrize("turns, message", [
    (["11112 1111"], "turns line 1"),                          # ends on a keep
    (["11112 1111 11111 2 11111 1 11111 yatzy"], "at most 3 rolls"),
    (["11112 666 66611 yatzy"], "cannot keep"),
    (["11112 1111 22222 yatzy"], "does not contain the kept dice"),
    (["11112 tens"], "turns line 1 must end with a box"),
    ([], "turns"),
])
def test_a_wrong_paper_game_names_what_is_wrong(yatzy, turns, message):
    with pytest.raises(ValueError, match=message):
        paper_game("yatzy", turns, solution=yatzy)


def test_a_wrong_log_is_refused(yatzy):
    good = to_log(Game(yatzy.rules, dice="12345", solution=yatzy))
    with pytest.raises(ValueError, match="text is not JSON"):
        loads("{", solution=yatzy)
    with pytest.raises(ValueError, match="format"):
        replay({**good, "format": "other"})
    with pytest.raises(ValueError, match="version"):
        replay({**good, "version": 99})
    with pytest.raises(ValueError, match="first_roll"):
        replay({**good, "first_roll": None})
    with pytest.raises(ValueError, match="move 1"):
        replay({**good, "moves": [{"pass": True}]}, solution=yatzy)
    assert replay(good, solution=yatzy, seed=np.random.default_rng(1)).position.dice == (1, 2, 3, 4, 5)


def test_malformed_moves_and_turns_are_named():
    log = json.loads(dumps(Game("yatzy", seed=4)))
    log["moves"] = [5]
    with pytest.raises(ValueError, match="log move 1"):
        replay(log)
    for bad in (5, [5], None):
        with pytest.raises(ValueError, match="turns"):
            paper_game("yatzy", bad)


def test_hold_for_names_a_keep_not_among_the_dice():
    from yatzy_core.ui.widgets_coach import hold_for
    assert hold_for((6, 1, 6), (6, 6)) == (True, False, True)
    with pytest.raises(ValueError, match="keep"):
        hold_for((1, 2, 3), (4,))
