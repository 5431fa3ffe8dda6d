"""The coach playing a game with saved rolls (Maxi Yatzy as played) on a small rule file of six
dice and three boxes: the bank of saved rolls, the roll button, the counter on the page, and
advice read from the whole table equal to the advice of the game of the open boxes."""
import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.advice.coach import Game
from yatzy_core.engine.saved import whole_saved_solution
from yatzy_core.game.rulefile import loads
from yatzy_core.ui.widgets_coach import CoachApp, hold_for

SIX = loads('name = "six-dice-saved"\nsaved_rolls = true\nn_dice = 6\nupper_bonus = 0\n'
            '[[boxes]]\nname = "sixes"\nscorer = "upper"\nface = 6\n'
            '[[boxes]]\nname = "villa"\nscorer = "all_same"\npoints = 20\n'
            '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


def same_advice(ours, theirs):
    assert [(a.label, a.action) for a in ours] == [(a.label, a.action) for a in theirs]
    assert [a.expected for a in ours] == pytest.approx([a.expected for a in theirs], abs=1e-9)


def test_scoring_early_banks_the_rerolls_left_and_rolls_spend_the_own_ones_first():
    game = Game(SIX, dice="123456", seed=1)
    assert (game.position.rolls_left, game.saved) == (2, 0)
    game.score("chance", next_dice="666611")          # 21 points, 2 rerolls left: both banked
    assert (game.total, game.saved, game.position.rolls_left) == (21, 2, 4)
    game.keep("6666", rolled="11")
    game.keep("6666", rolled="12")                    # the turn's own two rerolls
    assert (game.saved, game.position.rolls_left) == (2, 2)
    game.keep("6666", rolled="36")                    # now a saved one
    assert (game.saved, game.position.rolls_left) == (1, 1)
    game.score("sixes", next_dice="222222")           # 5 sixes: 30, one roll left banked
    assert (game.total, game.saved, game.position.rolls_left) == (51, 1, 3)
    game.score("villa")                               # the last box: 20, 3 rolls left at the end
    assert (game.over, game.total, game.saved) == (True, 71, 3)


def test_the_coach_advises_from_the_whole_table_as_the_open_boxes_game_does():
    game = Game(SIX, dice="123456", seed=4)
    same_advice(game.advice(), advise(game.position))
    assert game.advice()[0].label == "score villa now, saving 2 rolls"
    game.score("chance", next_dice="556666")
    for kept, rolled in [("6666", "16"), ("66666", "2"), ("66666", "5")]:
        same_advice(game.advice(), advise(game.position))      # 4, 3, 2 then 1 reroll left
        decision = game.keep(kept, rolled=rolled)
        assert decision.loss == pytest.approx(decision.best.expected - decision.choice.expected, abs=1e-12)
    assert (game.position.dice, game.position.rolls_left, game.saved) == ((5, 6, 6, 6, 6, 6), 1, 1)
    same_advice(game.advice(), advise(game.position))


def test_the_coach_page_shows_the_bank_and_lets_saved_rolls_be_rolled():
    app = CoachApp(SIX, seed=3, outlook=False)
    assert "six-dice-saved" in app.rules_w.options and "Saved rolls: 0" in app.status_w.value
    app.new_game(dice="123456")
    app.score("chance")                                # 2 rerolls left: banked
    assert "4 rerolls left · Saved rolls: 2" in app.status_w.value
    app.roll(), app.roll()
    assert app.table.can_roll and app.table.roll_label == "Reroll 6 dice (a saved roll)"
    assert "2 rerolls left · Saved rolls: 2" in app.status_w.value
    app.roll()
    assert "1 reroll left · Saved rolls: 1" in app.status_w.value
    app.undo()
    assert "2 rerolls left · Saved rolls: 2" in app.status_w.value     # undo gives the bank back


def test_the_coach_plays_a_whole_saved_game_optimally():
    app = CoachApp(SIX, seed=11, outlook=False)
    while not app.game.over:
        best = app.best
        if best.action == "keep":
            app.update(held=hold_for(app.game.position.dice, best.keep))
            app.roll()
        else:
            app.score(best.box)
    summary = app.game.summary()
    assert (summary.moves, summary.optimal_moves, summary.total_loss) == (len(app.game.decisions),) * 2 + (0.0,)
    assert summary.total == sum(app.game.scores.values())
    assert summary.optimal_expected == pytest.approx(whole_saved_solution(SIX).expected_score, abs=0)
    assert "game over · Saved rolls:" in app.status_w.value


def test_maxi_yatzy_needs_its_table_given():
    with pytest.raises(ValueError, match=r"'maxi-yatzy' with saved rolls are played from their whole "
                                         r"table: about 16\.2 GB in float64 \(8\.7 GB in float32\)"):
        CoachApp("maxi-yatzy", outlook=False)
    with pytest.raises(ValueError, match="not offered by the coach"):
        CoachApp("maxi-yatzy-no-saved-rolls", outlook=False)
