"""Moves graded by the chance to beat a score (beat_grades): a game played for the goal gives
nothing away, a max-mean game is graded move by move by the goal advice of each position."""
import numpy as np
import pytest

from test_turn import TINY
from yatzy_core.advice.coach import Game, play_optimally
from yatzy_core.advice.beat_grades import grade_to_beat
from yatzy_core.advice.objective_advice import target_advice
from yatzy_core.objectives.targets import solve_targets

SCORE = 25          # TINY's most is 38; its max-mean play expects about 20


@pytest.fixture(scope="module")
def table():
    return solve_targets(TINY, 45)


def test_a_game_played_to_beat_the_score_gives_nothing_away(table):
    game, points = Game(TINY, seed=5), 0
    while not game.over:
        best = target_advice(game.position, points, SCORE + 1, table)[0]
        move = game.keep(best.keep) if best.action == "keep" else game.score(best.box)
        points += move.points or 0
    grades = grade_to_beat(game, SCORE, table)
    assert len(grades) == len(game.decisions) and all(g.optimal for g in grades)
    assert grades[0].best == pytest.approx(target_advice(game.decisions[0].position, 0, SCORE + 1, table)[0].probability)


def test_a_max_mean_game_is_graded_by_the_goal_advice(table):
    given = []
    for seed in range(12):
        game = play_optimally(TINY, seed=seed)
        points = np.cumsum([0] + [d.points or 0 for d in game.decisions])
        for g, d, p in zip(grade_to_beat(game, SCORE, table), game.decisions, points):
            ranked = target_advice(d.position, int(p), SCORE + 1, table)
            assert g.best == ranked[0].probability and 0 <= g.probability <= g.best + 1e-15
            if d.choice.action == "keep":
                assert g.probability == next(a.probability for a in ranked if a.keep == d.choice.keep)
            given.append(g.given_away)
    assert max(given) > 0.01          # max-mean play does give some chance away at this score


def test_bad_scores_are_named():
    game = play_optimally(TINY, seed=1)
    for bad in (-1, "10", True, 2.5):
        with pytest.raises(ValueError, match="score"):
            grade_to_beat(game, bad)


def test_bad_inputs_of_the_goal_helpers_are_named(table):
    from yatzy_core.objectives.policy_play import second_player
    from yatzy_core.ui.play_for import objective_rows
    from yatzy_core.engine.position import Position
    first = np.array([0.5, 0.5])
    with pytest.raises(ValueError, match="one of them"):
        second_player(first, table, first)
    with pytest.raises(ValueError, match="ties"):
        second_player(first, table, ties=np.ones(1))
    p = Position.make(TINY, dice=(1, 2))
    for kw, name in (({"scored": "x", "total": 5}, "scored"), ({"scored": 0, "total": -1}, "total")):
        with pytest.raises(ValueError, match=name):
            objective_rows(p, "reach", **kw)
    with pytest.raises(ValueError, match="objective"):
        objective_rows(p, "mean", scored=0)
