"""One advise for every objective, and "score BOX now" in place of keeping all dice."""
import json

import numpy as np
import pytest

import yatzy_core
from yatzy_core.advice.advisor import Advice, advise
from yatzy_core.advice.coach import Game
from yatzy_core.advice.objective_advice import target_advice, risk_advice
from yatzy_core.objectives.appetite import Risk
from yatzy_core.objectives.goals import AtLeast, Beat
from yatzy_core.objectives.objective import MaxMean
from yatzy_core.cli.command import main
from yatzy_core.engine import turn as engine_turn
from yatzy_core.engine.position import Position
from yatzy_core.engine.turn import box_values, evaluate
from yatzy_core.game.rules import get_rules

LATE = dict(used="ones,twos,threes,fours,fives,three_of_a_kind,four_of_a_kind,full_house,small_straight",
            upper_total=40, dice="66612", rolls_left=1)


# ---- the objectives ----------------------------------------------------------------------------

def test_beat_is_at_least_one_more_and_each_objective_names_its_measure():
    assert Beat(223, 200).goal == AtLeast(224, 200) and AtLeast(224, 200).goal == AtLeast(224, 200)
    assert [o.measure for o in (MaxMean(), AtLeast(1), Beat(1), Risk(-0.1))] == \
        ["expected", "probability", "probability", "certainty_equivalent"]
    assert (AtLeast(280).label, Beat(279).label, Risk(0.05).label) == \
        ("P(final ≥ 280)", "P(final > 279)", "certainty equivalent")


@pytest.mark.parametrize("make, name", [(lambda: AtLeast(-1), "total"), (lambda: AtLeast(10, 1.5), "points"),
                                        (lambda: Beat("200"), "score"), (lambda: Risk(0), "theta"),
                                        (lambda: Risk(float("nan")), "theta"), (lambda: Risk(True), "theta")])
def test_a_bad_objective_names_its_argument(make, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        make()


def test_the_top_level_gives_the_advise_objectives():
    assert yatzy_core.AtLeast is AtLeast and yatzy_core.Beat is Beat and yatzy_core.Risk is Risk
    assert yatzy_core.MaxMean is MaxMean and MaxMean().lanes(None) is engine_turn.MEAN_LANES   # the engine's sum
    assert yatzy_core.TargetLanes is engine_turn.TargetLanes and not hasattr(engine_turn, "AtLeast")


def test_an_objective_goes_by_keyword(solutions):
    p = Position.make("yahtzee", dice="11112", rolls_left=2)
    with pytest.raises(TypeError, match="objective=") as e:
        advise(p, Beat(200))
    assert "solution" in str(e.value)
    with pytest.raises(TypeError, match="solution must be a target table"):   # a goal's own table, or none
        advise(p, solutions("yahtzee"), objective=Beat(200))


# ---- one result type ---------------------------------------------------------------------------

def test_advice_reads_as_before_for_the_mean():
    a = Advice("box", None, "threes", 0.0, 0.0)
    assert (a.expected, a.probability, a.measure, a.label) == (0.0, None, "expected", "score threes")
    assert a.to_dict() == {"action": "box", "box": "threes", "expected": 0.0, "loss": 0.0}
    now = Advice("box", None, "threes", 1.23456, 2.0, "probability", True)
    assert now.label == "score threes now" and now.expected is None
    assert now.to_dict() == {"action": "box", "box": "threes", "probability": 1.23456, "loss": 2.0}


def test_beat_and_at_least_are_the_goal_advice():
    p = Position.make("yahtzee", **LATE)
    beat = advise(p, objective=Beat(199, 150))         # the card holds 155 at most
    assert beat == advise(p, objective=AtLeast(200, 150)) == target_advice(p, 150, 200)
    assert beat[0].to_dict() == {"action": "keep", "keep": [6, 6, 6], "probability": beat[0].value, "loss": 0.0}
    assert beat[0].probability == pytest.approx(0.740948, abs=1e-6)
    assert all(a.loss == pytest.approx(beat[0].value - a.value, abs=0) for a in beat)


def test_risk_is_the_risk_advice_with_a_loss():
    p = Position.make("yahtzee", **LATE)
    ranked = advise(p, objective=Risk(-0.1))
    assert ranked == risk_advice(p, -0.1) and ranked[0].measure == "certainty_equivalent"
    d = ranked[1].to_dict()
    assert set(d) - {"keep", "box"} == {"action", "certainty_equivalent", "loss"}
    assert d["loss"] == ranked[0].value - ranked[1].value > 0      # full precision in JSON


# ---- score now ---------------------------------------------------------------------------------

def engine_turn_of(solution, position):
    """The turn through the engine directly, as the solver sees it (no advisor)."""
    space = solution.space
    return evaluate(space, box_values(space, solution.values, np.array([position.state(space)])), choose=False)


@pytest.mark.parametrize("rules, kw", [
    ("yahtzee", dict(dice="23456", rolls_left=2)),
    ("yahtzee", dict(dice="23456", rolls_left=1)),
    ("yahtzee", dict(dice="66666", rolls_left=1)),
    ("yatzy", dict(dice="11112", rolls_left=2)),
    ("yatzy", dict(dice="33355", rolls_left=1, used="full_house", upper_total=0)),
    ("yahtzee-no-bonus", dict(dice="12346", rolls_left=1, used="chance")),
])
def test_the_best_value_is_unchanged_and_score_now_is_the_final_roll_value(solutions, rules, kw):
    solution = solutions(rules)
    p = Position.make(rules, **kw)
    turn = engine_turn_of(solution, p)
    space = solution.space
    keep_all = space.rules.dice.keeper_index[p.counts]
    today = turn.keepers[p.rolls_left - 1][:, 0]
    ranked = advise(p, solution)
    assert ranked[0].value == pytest.approx(turn.rolls[p.rolls_left][p.roll, 0], abs=1e-9)   # keep-all included
    now = {a.box: a.value for a in ranked if a.action == "box"}
    assert all(a.now for a in ranked if a.action == "box") and len(now) == int(np.isfinite(
        turn.final[:, p.roll, 0]).sum())
    for b, name in enumerate(space.rules.box_names):
        if name in now:
            assert now[name] == turn.final[b, p.roll, 0]
    assert max(now.values()) <= today[keep_all] + 1e-9            # keeping all was worth at least that
    if p.rolls_left == 1:
        assert max(now.values()) == pytest.approx(today[keep_all], abs=1e-12)   # and exactly that


def test_a_made_large_straight_is_scored_now(capsys):
    status = main(["advise", "--rules", "yahtzee", "--dice", "23456", "--rolls-left", "2", "--json", "--top", "1"])
    [best] = json.loads(capsys.readouterr().out)
    assert status == 0 and best == {"action": "box", "box": "large_straight", "expected": best["expected"], "loss": 0.0}
    assert best["expected"] == pytest.approx(261.5314, abs=5e-5)
    main(["advise", "--rules", "yahtzee", "--dice", "23456", "--rolls-left", "2", "--top", "2"])
    rows = capsys.readouterr().out.splitlines()[2:]
    assert rows[0].split()[:5] == ["1", "score", "Large", "straight", "now"] and "261.5314" in rows[0]


@pytest.mark.parametrize("points, goal", [(150, 130), (40, 2000)])
def test_choices_equally_likely_are_ordered_by_the_mean(solutions, points, goal):
    """A goal already met (every choice certain) or out of reach (every choice hopeless): the
    choices come in the max-mean order, not "score the first open box now" first."""
    p = Position.make("yahtzee", **LATE)
    ranked = target_advice(p, points, goal)
    assert {a.value for a in ranked} == {1.0 if goal <= points else 0.0}
    assert [a.label for a in ranked] == [a.label for a in advise(p, solutions("yahtzee"))]
    assert ranked[0].label != "score sixes now"


def test_goals_offer_score_now_the_same_way():
    p = Position.make("yahtzee", **LATE)
    goal, risk = target_advice(p, 150, 200), risk_advice(p, 0.05)
    open_boxes = {n for n in p.rules.box_names if n not in p.used}
    for ranked in (goal, risk):
        assert {a.box for a in ranked if a.action == "box" and a.now} == open_boxes
        assert all(len(a.keep) < 5 for a in ranked if a.action == "keep")


# ---- the coach ---------------------------------------------------------------------------------

def test_the_coach_grades_scoring_with_rerolls_left_against_score_now(solutions):
    yatzy = solutions("yatzy")
    game = Game("yatzy", dice="23456", seed=1, solution=yatzy)
    ranked = advise(game.position, yatzy)
    d = game.score("large_straight")
    assert d.choice == next(a for a in ranked if a.box == "large_straight") and d.choice.now
    assert d.best == ranked[0] and d.loss == ranked[0].value - d.choice.value


def test_keeping_all_dice_is_graded_as_a_roll_spent(solutions):
    yatzy = solutions("yatzy")
    game = Game("yatzy", dice="23456", seed=1, solution=yatzy)
    first = game.position
    d = game.keep("23456")
    later = advise(game.position, yatzy)[0].value           # same dice, one reroll fewer
    assert d.choice == Advice("keep", (2, 3, 4, 5, 6), None, later, advise(first, yatzy)[0].value - later)
    assert game.position.dice == first.dice and game.position.rolls_left == 1


def test_the_hint_for_score_now_holds_every_die_and_points_at_the_box(solutions):
    from yatzy_core.ui.widgets_coach import CoachApp
    solutions("yatzy")
    app = CoachApp("yatzy", seed=2, outlook=False)
    app.new_game(dice="23456")
    best = app.hint()
    assert (best.label, best.now) == ("score large_straight now", True)
    assert app.held == (True,) * 5 and app.table.selected == "large_straight"
    d = app.score("large_straight")
    assert d.optimal and d.choice == best


# ---- review fixes: an unreachable goal in the explorer, numpy thetas, a table too small -------

def test_the_explorer_answers_an_unreachable_goal_at_once():
    """1900 is past any Yahtzee game (1,575): no table is needed, so the explorer must not ask
    for one (`yatzy solve --goal 1900` builds none)."""
    from yatzy_core.ui.play_for import objective_rows, play_for
    p = Position.make("yahtzee", dice="11112", rolls_left=2)
    assert play_for(p, "reach", scored=0, total=1900) == AtLeast(1900, 0)
    _, rows, _ = objective_rows(p, "reach", scored=0, total=1900)
    assert {r.value for r in rows} == {0.0}


def test_risk_takes_numpy_numbers():
    assert Risk(np.float32(0.5)).theta == 0.5 and type(Risk(np.int64(-1)).theta) is float
    with pytest.raises(ValueError, match="theta"):
        Risk(np.float64("nan"))


def test_a_target_table_too_small_for_the_goal_is_refused():
    from yatzy_core.objectives.targets import solve_targets
    rules = get_rules("yahtzee-no-bonus")
    p = Position.make(rules, used=set(rules.box_names) - {"ones", "chance"}, upper_total=0,
                      dice="66666", rolls_left=0)
    small = solve_targets(rules, 10, within=p.mask)
    assert target_advice(p, points=0, goal=10, targets=small)[0].probability == 1.0   # chance 30
    with pytest.raises(ValueError, match="targets answer at most 10"):
        target_advice(p, points=0, goal=20, targets=small)                          # 20 <= 35 to gain
