"""Game logs of a game with saved rolls (Maxi Yatzy as played), on six dice and three boxes: the
log records the bank after each score, and reloads (in Python, on the coach page and in
`yatzy grade`) with the same grades, the same bank and the same total; a damaged bank is
refused naming its field."""
import html
import json

import pytest

from test_coach_saved import SIX
from yatzy_core.advice.coach import Game
from yatzy_core.advice.gamelog import dumps, loads, paper_game, to_log, undo
from yatzy_core.cli.command import main
from yatzy_core.ui.widgets_coach import CoachApp


def played(seed):
    """A whole seeded game alternating the advisor's first and second choices, with the bank
    after every move."""
    game, banks = Game(SIX, seed=seed), []
    while not game.over:
        ranked = game.advice()
        game.play(ranked[len(game.decisions) % 2] if len(ranked) > 1 else ranked[0])
        banks.append(game.saved)
    return game, banks


def grades(game):
    return [(d.turn, d.position, d.label, d.loss, d.points) for d in game.decisions]


@pytest.mark.parametrize("seed", [2, 5])
def test_a_saved_roll_game_reloads_with_the_same_grades_bank_and_total(seed):
    game, banks = played(seed)
    log = to_log(game)
    scores = [(m, bank) for m, bank in zip(log["moves"], banks) if "score" in m]
    assert [m["saved"] for m, _ in scores] == [bank for _, bank in scores]     # the bank, recorded
    assert all("saved" not in m for m in log["moves"] if "keep" in m)
    again = loads(dumps(game))
    assert grades(again) == grades(game) and again.summary() == game.summary()
    assert (again.total, again.saved, again.scores) == (game.total, game.saved, game.scores)
    assert max(banks) > 0 and any(d.position.rolls_left > 2 for d in game.decisions)   # saved, spent


def test_the_coach_page_loads_a_saved_roll_log_with_its_bank():
    app = CoachApp(SIX, seed=3, outlook=False)
    app.new_game(dice="123456")
    app.score("chance")                                 # banks 2 rolls
    app.roll(), app.roll(), app.roll()                   # the third spends a saved one
    text = app.save_log()
    other = CoachApp(SIX, seed=9, outlook=False)
    other.load_log(text)
    assert other.feedback == "Loaded log: 4 moves graded."
    assert grades(other.game) == grades(app.game) and other.game.total == app.game.total == 21
    assert "1 reroll left · Saved rolls: 1" in app.status_w.value
    assert other.status_w.value == app.status_w.value.replace("seed 3", "loaded log")
    other.undo()
    assert "2 rerolls left · Saved rolls: 2" in other.status_w.value


def test_a_log_of_other_rules_is_refused_on_the_page():
    text = dumps(Game("yahtzee", dice="11112"))
    app = CoachApp(SIX, seed=3, outlook=False)
    for other, why in [(SIX.with_(name="six-other"), "are not offered by the coach"),
                       (SIX.with_(rolls_per_turn=2), "played under a variant of 'six-dice-saved'")]:
        app.load_log(dumps(Game(other, dice="123456")))
        assert why in html.unescape(app.feedback) and app.game.rules == SIX
    app.load_log(text)                                  # a built-in of the menu: fine
    assert app.game.rules.name == "yahtzee"


def test_yatzy_grade_grades_a_saved_roll_log(tmp_path, capsys):
    game, _ = played(5)
    path = tmp_path / "saved.json"
    path.write_text(dumps(game))
    assert main(["grade", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["loss"] for d in out["decisions"]] == [d.loss for d in game.decisions]
    assert (out["total"], out["saved_rolls"], out["optimal_moves"]) == (
        game.total, game.saved, sum(d.optimal for d in game.decisions))
    assert main(["grade", str(path)]) == 0
    assert f"Saved rolls in the bank: {game.saved}" in capsys.readouterr().out
    assert main(["grade", str(path), "--beat", "60"]) == 2
    assert "argument --beat: not computed for a game with saved rolls" in capsys.readouterr().err


def damaged(change):
    game = Game(SIX, dice="123456", seed=1)
    game.score("chance", next_dice="666611")
    game.keep("6666", rolled="12")
    game.score("sixes", next_dice="222222")
    log = to_log(game)
    change(log["moves"])
    return json.dumps(log)


@pytest.mark.parametrize("change, message", [
    (lambda m: m[0].update(saved="two"),
     r"log move 1 .*'saved' must be the rolls in the bank \(a whole number\), got 'two'"),
    (lambda m: m[2].update(saved=2), r"log move 3 .*'saved' says 2 rolls in the bank, but the moves bank 3"),
    (lambda m: m[1].update(saved=1), r"log move 2 .*'saved' goes with a 'score' move"),
    # a roll spent that the recorded bank does not account for
    (lambda m: m.insert(1, {"keep": [6, 6], "dice": [6, 6, 6, 6, 1, 1]}),
     r"log move 4 .*'saved' says 3 rolls in the bank, but the moves bank 2"),
])
def test_a_damaged_bank_is_refused_naming_the_field(change, message):
    assert json.loads(damaged(lambda m: None))["moves"][2]["saved"] == 3
    with pytest.raises(ValueError, match=message):
        loads(damaged(change))


def test_saved_on_a_game_without_saved_rolls_is_refused():
    log = to_log(Game("yahtzee", dice="11112"))
    log["moves"] = [{"score": "ones", "dice": [1, 2, 3, 4, 5], "saved": 0}]
    with pytest.raises(ValueError, match=r"log move 1 .*'saved': rules 'yahtzee' do not save rolls"):
        loads(json.dumps(log))


def test_a_paper_game_may_spend_saved_rolls():
    game = paper_game(SIX, ["123456 chance", "111122 1111 111134 1111 111156 1111 111112 11111 111111 villa"])
    assert [d.position.rolls_left for d in game.decisions] == [2, 4, 3, 2, 1, 0]
    assert (game.total, game.saved, game.scores) == (41, 0, {"chance": 21, "villa": 20})
    with pytest.raises(ValueError, match="at most 3 rolls"):
        paper_game(SIX, ["111122 1111 111134 1111 111156 1111 111112 villa"])
    assert undo(game).position.rolls_left == 0
