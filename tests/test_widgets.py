"""The explorer widget, checked through its model (explorer.update...); the coach: test_widgets_coach.py."""
import re

import ipywidgets as W
import plotly.graph_objects as go
import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.game.rules import get_rules
from yatzy_core.ui.fitted_figure import Refit, fitted
from yatzy_core.ui.widgets import Explorer, advice_table, bar_data


def advice_for(solutions, rules, **kw):
    return advise(Position.make(rules, **kw), solutions(rules))


@pytest.fixture
def explorer(solutions):
    solutions("yatzy"), solutions("yahtzee")   # solved once per session
    return Explorer(rules="yatzy", dice=(1, 1, 1, 1, 2), rolls_left=2)


def test_known_position_shows_the_advisors_ranking(explorer, solutions):
    ranked = advice_for(solutions, "yatzy", dice="11112", rolls_left=2)
    assert explorer.best_label == ranked[0].label == "keep 1 1 1 1"
    assert explorer.advice == ranked and explorer.message == ""
    table = explorer.table_w.value
    assert table.count('class="yc-row') == len(ranked) == 9 + 15       # every keeper but all five; 15 boxes now
    assert table.count("yc-row yc-best-row") == sum(a.loss < 1e-9 for a in ranked)
    assert "keep 1 1 1 1" in explorer.best_w.value
    assert "expected points still to come" in table                   # no score entered
    bar = explorer.fig.data[0]
    assert bar.y[-1] == ranked[0].label and bar.x[-1] == pytest.approx(ranked[0].expected)
    assert len(bar.y) == min(explorer.top, len(ranked))
    assert "(points)" in explorer.fig.layout.xaxis.title.text and explorer.fig.layout.title.text


def test_clicking_a_die_cycles_it_and_updates_the_advice(explorer, solutions):
    explorer.dice_table.click_die(4)                                    # the 2 becomes a 3
    assert explorer.dice == (1, 1, 1, 1, 3) and explorer.dice_table.dice == [1, 1, 1, 1, 3]
    assert 'aria-label="3"' in explorer.dice_table.svgs[4]             # drawn with three pips
    assert explorer.dice_table.svgs[4].count("<circle") == 3
    assert explorer.advice == advice_for(solutions, "yatzy", dice="11113", rolls_left=2)
    for _ in range(3):
        explorer.dice_table.click_die(4)
    assert explorer.dice[4] == 6
    explorer.dice_table.click_die(4)
    assert explorer.dice[4] == 1                                        # 6 wraps round to 1
    assert explorer.best_label == advice_for(solutions, "yatzy", dice="11111", rolls_left=2)[0].label


def test_widgets_drive_the_model(explorer, solutions):
    explorer.rolls_w.value = 0
    explorer.card_w.children[0].value = True                            # tick "ones"
    assert explorer.used == ("ones",)
    explorer.upper_w.value = 3
    ranked = advice_for(solutions, "yatzy", dice="11112", rolls_left=0, used=["ones"], upper_total=3)
    assert explorer.advice == ranked and ranked[0].action == "box"
    explorer.scored_w.value = "40"                                      # the score is now known
    assert explorer.value_heading == "expected final score"
    assert f"{ranked[0].expected + 40:.2f}" in explorer.best_w.value
    assert explorer.fig.data[0].x[-1] == pytest.approx(ranked[0].expected + 40)
    explorer.dice_text.value = "66665"
    assert explorer.dice == (5, 6, 6, 6, 6) and explorer.dice_table.dice == [5, 6, 6, 6, 6]


def test_explorer_dice_are_the_coachs_without_its_controls(explorer):
    table = explorer.dice_table
    assert (table.show_controls, table.listen_keys, table.die_class) == (False, False, "yc-die")


def test_update_matches_the_widgets(explorer):
    explorer.update(rules="yahtzee", dice="33456", rolls_left=1, used="ones,chance", upper_total=2)
    assert explorer.rules_w.value == "yahtzee" and explorer.rolls_w.value == 1
    labels = [t.description for t in explorer.card_w.children]     # as the coach's card reads
    assert labels[:2] == ["Ones", "Twos"] and labels[6] == "Three of a kind" and len(labels) == 13
    assert [t.description for t in explorer.card_w.children if t.value] == ["Ones", "Chance"]
    assert explorer.upper_w.value == 2 and not explorer.bonus_w.disabled


def test_changing_rules_keeps_what_still_makes_sense(explorer):
    explorer.update(used=("ones", "one_pair"), upper_total=2)
    explorer.rules_w.value = "yahtzee"
    assert explorer.used == ("ones",) and explorer.message == ""        # one_pair is yatzy only


@pytest.mark.parametrize("params, text", [
    (dict(used=("ones",), upper_total=7), "upper total 7 cannot be made"),
    (dict(dice="1111"), "dice"),
    (dict(dice="11a12"), "cannot read dice"),
    (dict(rolls_left=5), "rolls_left"),
    (dict(rules="poker"), "poker"),
])
def test_impossible_positions_show_a_message(explorer, params, text):
    explorer.update(**params)
    assert explorer.message.startswith("Impossible position:") and text in explorer.message
    assert explorer.advice == [] and explorer.best_label == "" and explorer.table_w.value == ""
    assert text in explorer.message_w.value and "Traceback" not in explorer.message_w.value
    assert list(explorer.fig.data[0].x) == [] and "No advice" in explorer.fig.layout.title.text
    explorer.update(rules="yatzy", dice="11112", rolls_left=2, used=(), upper_total=0)
    assert explorer.message == "" and explorer.best_label == "keep 1 1 1 1"


def test_full_card_and_bad_score_text(explorer):
    explorer.update(used=explorer.position.rules.box_names)
    assert "game is over" in explorer.message
    explorer.update(used=())
    explorer.scored_w.value = "lots"
    assert "whole number" in explorer.message
    assert explorer.out.outputs == ()                                   # no traceback anywhere


def test_unknown_inputs_are_refused(explorer):
    with pytest.raises(ValueError, match="unknown explorer inputs"):
        explorer.update(dices="11112")


def test_play_it_forward(explorer, solutions):
    explorer.update(scored=10)
    explorer.play_w.click()                                             # keep 1 1 1 1, reroll one
    assert explorer.rolls_left == 1 and list(explorer.dice).count(1) >= 4
    explorer.update(rolls_left=0, dice="11112")
    best = explorer.best
    points = explorer.position.points(best.box)
    explorer.play_best()
    assert best.box in explorer.used and explorer.scored == 10 + points
    assert explorer.rolls_left == 2 and explorer.upper_total == points * (best.box == "ones")


def test_table_and_bars_are_pure_functions(solutions):
    ranked = advice_for(solutions, "yatzy", dice="12345", rolls_left=0)
    html = advice_table(ranked, scored=100)
    first = re.search(r'data-label="([^"]+)"><td>1</td><td>[^<]+</td><td>([0-9.]+)', html)
    assert first.group(1) == ranked[0].label and float(first.group(2)) == round(ranked[0].expected + 100, 2)
    labels, values, colours, xrange = bar_data(ranked, None, 3)
    assert labels == [a.label for a in ranked[:3]][::-1] and xrange[0] < min(values) <= max(values) < xrange[1]
    assert bar_data([], None, 3) == ([], [], [], None)


# ---- the explorer's objective selector ------------------------------------------------------

LATE = dict(rules="yahtzee-no-bonus", used=tuple(n for n in get_rules("yahtzee-no-bonus").box_names
                                                 if n != "chance"),
            upper_total=63, dice=(1, 2, 3, 4, 6), rolls_left=1, scored=200)


def test_playing_to_beat_a_score_changes_the_best_keeper(solutions):
    solutions("yahtzee-no-bonus")
    ex = Explorer(**LATE)
    assert ex.best_label == "keep 4 6"                                   # best average: 20.5 points
    ex.objective_w.value = "beat"                                        # the widget drives the model
    ex.goal_w.value = 226                                                # 27 more points in chance
    assert ex.objective == "beat" and ex.goal == 226 and ex.message == ""
    assert ex.best_label == "keep 6" and ex.rows[0].value == pytest.approx(35 / 1296, abs=1e-12)
    assert [r.label for r in ex.rows[:2]] == ["keep 6", "keep 4 6"]
    assert ex.rows[1].value == pytest.approx(4 / 216, abs=1e-12)         # 3 dice make 17 or more
    assert "P(final &gt; 226)" in ex.table_w.value and "0.0270" in ex.best_w.value
    assert ex.goal_w.description == "Score to beat" and ex.theta_w.layout.display == "none"
    ex.update(objective="reach", goal=224)                               # 24 more: 4 6 again
    assert ex.best_label == "keep 4 6" and ex.rows[0].value == pytest.approx(35 / 216, abs=1e-12)
    ex.play_best()                                                       # the objective's best move
    assert ex.rolls_left == 0 and {4, 6} <= set(ex.dice)
    assert ex.outlook.wait(60)     # its last pass ends here, not under the next test's patched solver


def test_a_goal_needs_the_points_and_never_starts_a_long_solve(solutions, monkeypatch):
    solutions("yatzy")
    ex = Explorer(**{**LATE, "scored": None})
    ex.update(objective="reach", goal=230)
    assert "enter the points so far" in ex.message and ex.best_label == "keep 4 6"   # mean kept
    monkeypatch.setattr("yatzy_core.objectives.tables.solve_targets", lambda *a, **k: pytest.fail("solved"))
    monkeypatch.setattr("yatzy_core.objectives.tables.cached_caps", lambda rules: [])   # no whole table cached
    ex.update(rules="yatzy", used=(), upper_total=0, dice=(1, 1, 1, 1, 2), rolls_left=2, scored=0)
    assert "yatzy solve --rules yatzy --goal 230" in ex.message
    assert ex.best_label == "keep 1 1 1 1" and ex.rows[0].value == ex.advice[0].expected
    assert ex.outlook.wait(60) and ex.outlook.distribution is None         # no pass either: refused
    assert "yatzy solve --rules yatzy --goal 230" in ex.outlook.chance_w.value


def test_a_risk_appetite_ranks_by_certainty_equivalent(solutions):
    solutions("yahtzee-no-bonus")
    ex = Explorer(**LATE).update(objective="risk", theta=0.3)
    from yatzy_core.advice.objective_advice import risk_advice
    want = risk_advice(ex.position, 0.3)
    assert ex.best_label == want[0].label and ex.goal_w.layout.display == "none"
    assert ex.rows[0].value == pytest.approx(200 + want[0].certainty_equivalent, abs=1e-9)
    assert ex.value_heading == "certainty equivalent (final score)"
    assert "risk appetite: a risk appetite of 0" in ex.update(theta=0.0).message


def test_the_outlook_is_the_distribution_of_the_policy_played_for(solutions):
    """Best average, a score to beat, a risk appetite: each policy's own final scores from here
    (`midgame`), with the policy named; no points so far, no outlook."""
    from yatzy_core.objectives.midgame import (position_distribution, risk_position_distribution,
                                               target_position_distribution)
    from yatzy_core.objectives.goals import Beat
    from yatzy_core.objectives.risk import risk_table
    from yatzy_core.objectives.targets import solve_targets
    solution = solutions("yahtzee-no-bonus")
    ex = Explorer(**LATE)
    assert ex.outlook.wait(60)
    mean = position_distribution(ex.position, solution, points=200)
    assert ex.outlook.distribution.probabilities.tolist() == mean.probabilities.tolist()
    assert "from here: best average" in ex.outlook.chance_w.value
    assert "yc-explorer-chance" in ex.outlook.chance_w._dom_classes      # not the coach's, on one page
    ex.update(objective="beat", goal=226)
    assert ex.outlook.wait(60)
    beat = ex.outlook.distribution
    want = target_position_distribution(ex.position, solve_targets(ex.position.rules, 27, within=ex.position.mask),
                                        227, points=200)
    assert beat.probabilities.tolist() == want.probabilities.tolist()
    best = advise(ex.position, objective=Beat(226, 200))[0].probability
    assert beat.p_at_least(227) == pytest.approx(best, abs=1e-9) and best == pytest.approx(35 / 1296, abs=1e-12)
    assert beat.p_at_least(227) > mean.p_at_least(227) + 0.005 and beat.mean < mean.mean   # not max-mean's
    assert "P(final score ≥ 227) = 2.7%" in ex.outlook.chance_w.value
    assert 'aria-label="Final score from here (playing to beat 226)"' in ex.outlook.plot_w.value
    ex.update(objective="risk", theta=0.3)
    assert ex.outlook.wait(60) and "risk θ=0.3" in ex.outlook.chance_w.value
    want = risk_position_distribution(ex.position, risk_table(ex.position.rules, 0.3, within=ex.position.mask),
                                      points=200)
    assert ex.outlook.distribution.probabilities.tolist() == want.probabilities.tolist()
    ex.update(scored=None)
    assert ex.outlook.wait(60) and ex.outlook.distribution is None
    assert "Enter the points so far" in ex.outlook.chance_w.value


def test_a_risk_outlook_is_given_from_the_start(monkeypatch):
    """A risk pass takes seconds from anywhere (8.4 s for a whole Yatzy game): never refused for
    the open boxes, unlike a goal's (here the pass itself is stood in for)."""
    from yatzy_core.ui.play_for import policy_outlook
    monkeypatch.setattr("yatzy_core.objectives.tables.risk_table_for", lambda position, theta, use_cache, progress: "u")
    monkeypatch.setattr("yatzy_core.objectives.midgame.risk_position_distribution",
                        lambda position, table, scored: (position.used, table, scored))
    start = Position.make("yahtzee-no-bonus", dice="11112")
    assert policy_outlook(start, "risk", 0, theta=0.05) == ((frozenset(), "u", 0), "risk θ=0.05")


def test_a_policy_outlook_from_early_on_is_refused_even_with_a_table(monkeypatch):
    """A whole table at hand answers the ranking, but the policy's pass from 13 open boxes takes
    minutes: refused with the reason, before any table is read."""
    from yatzy_core.objectives.objective import OUTLOOK_OPEN
    from yatzy_core.ui.play_for import policy_outlook
    monkeypatch.setattr("yatzy_core.objectives.tables.cached_caps", lambda rules: [375])
    monkeypatch.setattr("yatzy_core.objectives.tables.target_table", lambda *a, **k: pytest.fail("read"))
    early = Position.make("yahtzee-no-bonus", dice="11112")
    with pytest.raises(ValueError, match=f"playing to beat 240 is computed with {OUTLOOK_OPEN} boxes open"):
        policy_outlook(early, "beat", 0, score=240)


def test_the_chart_fills_its_box_and_follows_it(explorer):
    """The explorer's chart has no width of its own: plotly's responsive mode and a Refit beside
    it (a window resize each time the box changes width) make it fit a phone's screen."""
    rows = [w for w in explorer.widget.children if isinstance(w, W.Box)]
    box = next(c for row in rows for c in row.children if "yc-chart" in c._dom_classes)
    assert box.children[0] is explorer.fig and isinstance(box.children[1], Refit)
    assert explorer.fig._config["responsive"] and explorer.fig.layout.autosize
    assert explorer.fig.layout.width is None
    with pytest.raises(ValueError, match="fig must leave its width to the box"):
        fitted(go.FigureWidget(layout={"width": 700}))
