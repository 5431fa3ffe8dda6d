"""The coach widget through its model: clicks and keys as the dice table sends them, the score
card it draws, hints, undo, the game log and the outlook of the final score."""
import json
import re

import numpy as np
import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.game.rules import get_rules
from yatzy_core.advice.coach import Game, play_optimally
from yatzy_core.advice.gamelog import to_log
from yatzy_core.objectives.midgame import position_distribution
from yatzy_core.ui.coach_outlook import chance_text, game_distribution, outlook_svg
from yatzy_core.ui.dice_widget import DiceTable, die_svg
from yatzy_core.ui.widgets_coach import CoachApp, hold_for


@pytest.fixture
def app(solutions):
    solutions("yatzy")
    return CoachApp("yatzy", seed=2, outlook=False)


def message(app, **content):
    """What the browser sends when the player clicks or presses a key."""
    app.table._on_msg(app.table, content, [])


def test_coach_plays_a_seeded_game_by_clicks_and_keys(solutions):
    solutions("yatzy")
    app = CoachApp("yatzy", seed=31, outlook=False)
    assert app.advice_w.value == "" and app.summary_w.value == ""        # advice hidden
    by_key = True
    while not app.game.over:
        best = app.best
        if best.action == "keep":
            for i, h in enumerate(hold_for(app.game.position.dice, best.keep)):
                if h:
                    message(app, type="key", key=str(i + 1)) if by_key else message(app, type="toggle", i=i)
            assert app.table.held == list(hold_for(app.game.position.dice, best.keep))
            message(app, type="key", key="r") if by_key else message(app, type="roll")
        else:
            message(app, type="score", box=best.box)
        by_key = not by_key
        assert "optimal" in app.feedback_w.value and "cost" not in app.feedback_w.value
    reference = play_optimally("yatzy", seed=31, solution=solutions("yatzy")).summary()
    assert app.game.summary() == reference
    assert f"Total: {reference.total} points" in app.summary_w.value
    assert f"Optimal moves: {reference.moves} of {reference.moves}" in app.summary_w.value
    assert "game over" in app.status and app.table.open_boxes == [] and not app.table.can_roll
    assert f'<td>Grand total</td><td class="yc-pad-score">{reference.total}</td>' in app.table.card


def test_enter_scores_the_selected_box_or_the_advisors(app):
    app.new_game(dice="44445")
    assert app.press("ArrowDown") == "select" and app.table.selected == "ones"
    assert 'yc-pad-selected" data-box="ones"' in app.table.card
    app.press("ArrowUp")
    assert app.table.selected == "yatzy"                          # wraps to the last open box
    app.press("ArrowUp"), app.press("Escape")
    assert app.table.selected is None
    app.press("Enter")                                            # no box picked: the advisor's
    last = Position.make("yatzy", dice="44445", rolls_left=0)
    box = advise(last, app.game.solution)[0].box
    assert app.game.decisions[-1].label == f"score {box} now" and box in app.game.scores   # rerolls left
    app.press("ArrowDown"), app.press("ArrowDown")
    picked = app.table.selected
    assert picked == [b for b in app.game.rules.box_names if b != box][1]
    app.press("Enter")
    assert picked in app.game.scores and app.table.selected is None


def test_hint_holds_the_advisors_dice_and_undo_takes_moves_back(app):
    first = app.game.position
    best = app.press("h") and app.best
    assert f"Hint: <b>{best.label}</b>" in app.feedback_w.value
    assert tuple(app.table.held) == hold_for(first.dice, best.keep)
    app.press("r")
    assert app.game.decisions[-1].optimal and app.table.can_undo
    app.press("u")
    assert app.game.position == first and app.game.decisions == [] and not app.table.can_undo
    assert "Took back turn 1" in app.feedback_w.value
    app.press("u")
    assert "Nothing to undo" in app.feedback_w.value


def test_coach_reports_losses_and_reveals_advice_on_request(app):
    worst = app.advice[-1]                                            # a keeper, or a box scored now
    d = app.keep(worst.keep) if worst.action == "keep" else app.score(worst.box)
    assert d.loss == pytest.approx(worst.loss) and f"cost {worst.loss:.2f}" in app.feedback_w.value
    assert "optimal:" not in app.feedback_w.value                     # advice hidden
    app.show_w.value = True
    assert app.show_advice and app.advice_w.value.count('class="yc-row') == len(app.advice)
    assert f"optimal: {d.best.label}" in app.history_w.value


def test_coach_illegal_moves_show_a_message_and_change_nothing(app):
    app.keep(app.game.position.dice)
    app.keep(app.game.position.dice)
    before = (app.game.position, len(app.game.decisions))
    assert not app.table.can_roll and app.roll() is None
    assert app.table.roll_label == "No rerolls left: score a box"
    assert "Not allowed: no rerolls left" in app.feedback_w.value
    assert (app.game.position, len(app.game.decisions)) == before
    with pytest.raises(ValueError, match="i must be a die position"):
        app.table.click_die(5)


def test_coach_new_game_from_widgets(app, solutions):
    solutions("yahtzee")
    app.rules_w.value, app.seed_w.value = "yahtzee", "8"
    app.new_w.click()
    assert app.game.rules.name == "yahtzee" and app.seed == 8
    assert app.table.open_boxes == list(app.game.position.box_points())
    assert 'data-rules="yahtzee"' in app.table.card and "Yahtzee bonus (100 each)" in app.table.card
    app.seed_w.value = "x"
    app.new_w.click()
    assert "seed must be a whole number" in app.feedback_w.value and app.seed == 8


def test_coach_card_shows_box_points_and_bonus_apart(app):
    app.new_game(dice="44445")
    for name, following in [("fours", "55556"), ("fives", "33336"), ("threes", "66666")]:
        app.game.score(name, next_dice=following)           # upper total 16 + 20 + 12 = 48
    app.update()
    assert ('data-box="sixes"><td>Sixes</td><td class="yc-pad-score"><span class="yc-pad-option">30'
            '</span> <span class="yc-pad-extra">+50</span>') in app.table.card
    assert "15 to go for the bonus" in app.table.card
    message(app, type="score", box="sixes")
    assert "bonus made" in app.table.card and '<td>Bonus (50 at 63)</td><td class="yc-pad-score">50' in app.table.card
    assert app.game.bonus == 50 and app.game.total == 16 + 20 + 12 + 30 + 50


def test_the_dice_are_drawn_with_pips(app):
    assert [s.count("<circle") for s in app.table.svgs] == list(app.game.position.dice)
    app.toggle_hold(0)
    assert 'fill="#ffd54f"' in app.table.svgs[0] and 'fill="#ffffff"' in app.table.svgs[1]
    assert ">9</text>" in die_svg(9)
    with pytest.raises(ValueError, match="face"):
        die_svg(0)
    with pytest.raises(ValueError, match="action"):
        DiceTable().on("jump", print)
    assert DiceTable(dice=[1, 2]).press("q") is None


def test_the_log_saves_loads_and_grades_a_paper_game(app):
    app.keep(app.game.position.dice[:2])
    text = app.save_log()
    assert json.loads(text) == to_log(app.game) and "yc-coach-download" in app.log.link_w.value
    moved = app.game
    app.new_game()
    app.log.text_w.value = text
    app.log.load_w.click()
    assert app.game.decisions == moved.decisions and app.game.position == moved.position
    assert "loaded log" in app.status and "Loaded log: 1 moves graded" in app.feedback_w.value
    app.log.text_w.value = "11112 1111 11111 yatzy\n23456 large_straight"
    app.log.paper_w.click()
    assert app.game.total == 70 and "paper game" in app.status and len(app.game.decisions) == 3
    app.log.text_w.value = "{"
    app.log.load_w.click()
    assert "text is not JSON" in app.feedback_w.value and app.game.total == 70


def test_outlook_from_a_position_is_the_midgame_distribution(solutions):
    yatzy = solutions("yatzy")
    game = Game("yatzy", dice="66666", solution=yatzy)
    used = [b for b in yatzy.rules.box_names if b not in ("chance", "yatzy")]
    for box in used:
        game.scores[box] = 0                                  # a card with two boxes left
    game.position = Position.make("yatzy", used=used, dice="66666", rolls_left=2)
    game.total = 0
    dist = game_distribution(game)
    assert np.array_equal(dist.probabilities, position_distribution(game.position, yatzy).probabilities)
    # the yatzy now, then chance with three rolls: 50 + 70/3 on average, 50 + 5 ... 50 + 30
    assert round(dist.mean, 9) == round(50 + 70 / 3, 9) and dist.p_at_least(55) == pytest.approx(1.0)
    svg = outlook_svg(dist, 75)
    assert 'data-first="55" data-last="80" data-bars="26"' in svg
    fills = re.findall(r'<rect [^>]*fill="([^"]+)"><title>final (\d+): ([0-9.]+)</title>', svg)
    assert [f for f, _, _ in fills] == ["#9e9e9e"] * 20 + ["#2e7d32"] * 6        # scores >= 75 green
    assert [int(s) for _, s, _ in fills] == list(range(55, 81))
    assert [p for _, _, p in fills] == [f"{dist.probabilities[s]:.4f}" for s in range(55, 81)]
    assert 'aria-label="Final score from here (best average)"' in svg
    with pytest.raises(ValueError, match="target"):
        chance_text(dist, -1)
    app = CoachApp("yatzy", seed=4)
    app.outlook.latest.wait()
    expected = position_distribution(app.game.position, yatzy)
    assert app.outlook.distribution.probabilities.tolist() == expected.probabilities.tolist()
    assert app.outlook.chance_w.value == (f"<b>{chance_text(expected, 250)}</b>"
                                          "<br><small>from here: best average</small>")
    app.outlook.target_w.value = 200
    assert f"P(final score ≥ 200) = {100 * expected.p_at_least(200):.1f}%" in app.outlook.chance_w.value
    over = play_optimally("yatzy", seed=31, solution=yatzy)
    app.outlook.show(over)                                     # a finished game: drawn at once
    assert app.outlook.distribution.probabilities.nonzero()[0].tolist() == [over.total]
    assert app.outlook.chance_w.value.startswith(f"<b>P(final score ≥ 200) = {100.0 * (over.total >= 200):.1f}%")



def test_the_outlook_plays_the_policy_the_player_plays_for(solutions, monkeypatch):
    """Playing to beat a score or with a risk appetite: the outlook is that policy's own
    distribution (`midgame`), named; from the first turn without a whole table, refused."""
    from yatzy_core.objectives.midgame import risk_position_distribution, target_position_distribution
    from yatzy_core.objectives.appetite import Risk
    from yatzy_core.objectives.goals import Beat
    from yatzy_core.objectives.risk import risk_table
    from yatzy_core.objectives.targets import solve_targets
    yatzy = solutions("yatzy")
    game = Game("yatzy", dice="66666", solution=yatzy)
    used = [b for b in yatzy.rules.box_names if b not in ("chance", "yatzy", "sixes")]
    for box in used:
        game.scores[box] = 0
    game.position = Position.make("yatzy", used=used, dice="66612", rolls_left=1)
    game.total = 130                       # the lower boxes' zeros aside, the card holds at most 139
    app = CoachApp("yatzy", seed=4)
    app.outlook.play_w.value, app.outlook.target_w.value = "beat", 190
    assert app.outlook.target_w.description == "Score to beat"
    app.outlook.show(game)
    assert app.outlook.wait(60)
    got = app.outlook.distribution
    table = solve_targets("yatzy", 61, within=game.position.mask)
    want = target_position_distribution(game.position, table, 191, 130)
    assert got.probabilities.tolist() == want.probabilities.tolist()
    best = advise(game.position, objective=Beat(190, 130))[0].probability
    assert got.p_at_least(191) == pytest.approx(best, abs=1e-9) and 0.05 < best < 0.95
    assert "from here: playing to beat 190" in app.outlook.chance_w.value
    assert f"P(final score ≥ 191) = {100 * best:.1f}%" in app.outlook.chance_w.value
    app.outlook.play_w.value, app.outlook.theta_w.value = "risk", -0.05    # each change: a new pass
    assert app.outlook.wait(60) and "from here: risk θ=-0.05" in app.outlook.chance_w.value
    rest = np.arange(len(app.outlook.distribution.probabilities)) - 130
    ce = np.log(app.outlook.distribution.probabilities @ np.exp(-0.05 * rest)) / -0.05
    assert ce == pytest.approx(advise(game.position, objective=Risk(-0.05))[0].certainty_equivalent, abs=1e-9)
    assert np.allclose(app.outlook.distribution.probabilities,
                       risk_position_distribution(game.position, risk_table("yatzy", -0.05, within=game.position.mask),
                                                  130).probabilities, atol=0)
    monkeypatch.setattr("yatzy_core.objectives.tables.cached_caps", lambda rules: [])   # no whole table
    app.outlook.play_w.value = "beat"
    app.new_game()                                                # the first turn: refused, nothing drawn
    assert app.outlook.wait(60) and app.outlook.distribution is None
    assert "yatzy solve --rules yatzy --goal 191" in app.outlook.chance_w.value
    assert 'data-bars="0"' in app.outlook.plot_w.value and "<rect" not in app.outlook.plot_w.value   # no plot of another policy


def test_the_coach_grades_a_game_to_beat_a_score():
    """The panel grades on its worker thread, from a table up to the score (a few seconds)."""
    from yatzy_core.advice.beat_grades import grade_to_beat
    from yatzy_core.ui.coach_beat import grades_html
    app = CoachApp("yahtzee-no-bonus", seed=3, outlook=False)
    while not app.game.over:
        best = app.best
        app.keep(best.keep) if best.action == "keep" else app.score(best.box)
    app.goal.submit(240)
    assert app.goal.wait(300)
    want = grade_to_beat(app.game, 240)
    assert app.goal.result_w.value == grades_html(want, 240)
    best = sum(g.optimal for g in want)
    assert f"{best} of {len(app.game.decisions)} moves were the best" in app.goal.result_w.value
    assert all(0 <= g.probability <= g.best + 1e-12 for g in want) and best < len(want)


def test_the_roll_button_and_status_count_dice_and_rerolls_in_words(app):
    """One die, one reroll: singular words, the way a player reads them."""
    for i in range(4):
        app.toggle_hold(i)
    assert app.table.roll_label == "Reroll 1 die"
    app.toggle_hold(3)
    assert app.table.roll_label == "Reroll 2 dice"
    app.roll()
    assert "turn 1 of 15 · 1 reroll left · move 1" in app.status_w.value
