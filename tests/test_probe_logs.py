"""Hostile-input probe, game logs and the API around them: a log is graded under the rules its
game was played under, a missing roll is refused (never drawn), an unfinished game is graded as
unfinished, and a bad log is one ValueError (one CLI line) naming the file and field."""
import contextlib
import html
import io
import json

import numpy as np
import pytest
from hypothesis import given, strategies as st

from yatzy_core.cli import command as cli
from yatzy_core.engine.position import Position
from yatzy_core.advice.coach import Game, play_optimally
from yatzy_core.advice.beat_grades import grade_to_beat
from yatzy_core.advice.gamelog import dumps, loads, paper_game, replay, to_log, undo
from yatzy_core.game import rulefile
from yatzy_core.game.rules import Rules, get_rules
from yatzy_core.engine.solver import solve
from test_faults import FAST

VARIANT = get_rules("yahtzee-no-bonus").with_(upper_bonus=50, upper_bonus_threshold=40)
RULE_FILE = """name = "ok"
n_dice = 3
upper_bonus = 0
[[boxes]]
name = "ones"
scorer = "upper"
face = 1
[[boxes]]
name = "sixes"
scorer = "upper"
face = 6
[[boxes]]
name = "chance"
scorer = "chance"
"""


def call(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def one_line_error(status, out, err, *words):
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("yatzy: error: ") and all(w in err for w in words), err


@pytest.fixture(scope="module")
def variant_game():
    game = play_optimally(VARIANT, seed=0)
    assert (game.total, game.bonus) == (324, 50)     # upper 50: the bonus only this variant pays
    return game


@pytest.fixture
def yatzy_log(solutions):
    """A short unfinished yatzy game: keep, score, keep."""
    game = Game(solutions("yatzy").rules, dice="11112", solution=solutions("yatzy"))
    game.keep("1111", rolled="3")
    game.score("ones", next_dice="23455")
    game.keep("2345", rolled="6")
    return to_log(game)


# ---- item 3: the rules themselves travel in the log ---------------------------------------------

def test_a_variant_game_is_graded_under_the_variant(variant_game, tmp_path):
    again = loads(dumps(variant_game))
    summary = again.summary()
    assert again.rules == VARIANT and summary.total == 324 and summary.bonus == 50
    assert summary.total_loss == 0 and summary.optimal_moves == summary.moves == len(variant_game.decisions)
    path = tmp_path / "variant.json"
    path.write_text(dumps(variant_game))
    status, out, err = call("grade", str(path), "--json")
    data = json.loads(out)
    assert status == 0 and err == "" and data["total"] == 324 and data["expected_points_lost"] == 0


def test_a_rule_file_game_is_graded_and_an_old_log_takes_the_file(tmp_path):
    file = tmp_path / "ok.toml"
    file.write_text(RULE_FILE)
    game = play_optimally(rulefile.load(file), seed=2)
    path = tmp_path / "game.json"
    path.write_text(dumps(game))
    status, out, _ = call("grade", str(path), "--json")
    assert status == 0 and json.loads(out)["total"] == game.total and json.loads(out)["rules"] == "ok"
    old = {k: v for k, v in to_log(game).items() if k != "rule_file"} | {"version": 1}
    path.write_text(json.dumps(old))
    one_line_error(*call("grade", str(path)), str(path), "'ok'", "not a built-in")
    status, out, _ = call("grade", str(path), "--rules-file", str(file), "--json")
    assert status == 0 and json.loads(out)["total"] == game.total


def test_rules_that_contradict_the_log_are_refused(variant_game, tmp_path, solutions):
    path = tmp_path / "variant.json"
    path.write_text(dumps(variant_game))
    one_line_error(*call("grade", str(path), "--rules", "yahtzee-no-bonus"), "argument --rules",
                   "not the rules the log's game was played under")
    with pytest.raises(ValueError, match="rules 'yatzy' are not the rules"):
        loads(dumps(variant_game), rules="yatzy")
    solutions("yatzy")
    plain = tmp_path / "plain.json"
    plain.write_text(dumps(play_optimally("yatzy", seed=1)))
    assert call("grade", str(plain), "--rules", "yatzy")[0] == 0


def test_an_old_log_of_a_built_in_game_still_loads(solutions):
    game = play_optimally("yatzy", seed=4, solution=solutions("yatzy"))
    old = {k: v for k, v in to_log(game).items() if k != "rule_file"} | {"version": 1}
    assert replay(old).summary() == game.summary()


# ---- item 4: missing rolls and unfinished games -------------------------------------------------

@pytest.mark.parametrize("missing", [None, "absent"])
def test_a_missing_roll_is_refused_naming_the_move(yatzy_log, missing):
    log = json.loads(json.dumps(yatzy_log))
    if missing is None:
        log["moves"][1]["dice"] = None
    else:
        del log["moves"][1]["dice"]
    with pytest.raises(ValueError, match=r"log move 2 .*'dice' is missing"):
        replay(log)
    del log["moves"][1:]
    del log["moves"][0]["dice"]                     # after a keep the roll is always needed
    with pytest.raises(ValueError, match=r"log move 1 .*'dice' is missing"):
        replay(log)


def test_an_unfinished_game_is_graded_as_unfinished(solutions, tmp_path):
    solution = solutions("yatzy")
    game = play_optimally("yatzy", seed=3, solution=solution)
    log = to_log(game)
    expected = solution.expected_score
    first = replay({**log, "moves": log["moves"][:1]}).summary()   # one keep: the first roll's luck
    assert not first.finished and first.total == 0
    assert first.luck == pytest.approx(game.decisions[0].best.expected - expected, abs=1e-9)
    assert replay({**log, "moves": []}).summary().luck == 0.0
    cut = replay({**log, "moves": log["moves"][:10]}).summary()
    assert cut.moves == 10 and cut.turns[1] == 15 and "Unfinished game" in str(cut)
    assert -30 < cut.luck < 30                       # not -228: the missing turns are not luck
    assert replay(log).summary().luck == pytest.approx(game.total - expected)   # finished: as before
    path = tmp_path / "cut.json"
    path.write_text(json.dumps({**log, "moves": log["moves"][:10]}))
    data = json.loads(call("grade", str(path), "--json")[1])
    assert data["finished"] is False and data["total"] is None and data["luck"] == cut.luck


def test_a_last_score_without_a_next_roll_is_graded_the_same_every_time(yatzy_log):
    log = {**yatzy_log, "moves": yatzy_log["moves"][:2]}
    del log["moves"][1]["dice"]                     # the next turn not rolled yet
    summaries = [replay(log, seed=s).summary() for s in range(4)]
    assert {s.luck for s in summaries} == {summaries[0].luck} and not summaries[0].finished
    assert summaries[0].total == 4 and summaries[0].turns == (1, 15)


# ---- items 12 and 13: tracebacks and errors that name nothing -----------------------------------

def test_hostile_files_are_one_line_naming_the_file(tmp_path, yatzy_log):
    cases = {"deep.json": "[" * 100_000 + "]" * 100_000,
             "huge.json": '{"format": "yatzy-game-log", "version": ' + "9" * 5000 + "}",
             "latin.json": None}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_bytes(b'{"rules": "\xe9"}' if text is None else text.encode())
        one_line_error(*call("grade", str(path)), str(path))
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(yatzy_log).encode())
    status, out, _ = call("grade", str(bom), "--json")
    assert status == 0 and json.loads(out)["points_so_far"] == 4


@pytest.mark.parametrize("change, words", [
    ({"version": True}, "log 'version'"),
    ({"moves": [{"keep": [[2], [2]], "dice": [1, 1, 1, 1, 2]}]}, "log move 1 .*'keep': dice must be whole numbers"),
    ({"first_roll": [1, 1, 1, 1, 10 ** 100]}, "log 'first_roll'"),
    ({"rules": ["yatzy"]}, "log 'rules'"),
])
def test_odd_fields_are_refused_naming_them(yatzy_log, change, words):
    with pytest.raises(ValueError, match=words):
        replay({**yatzy_log, **change})


def test_api_faults_name_their_argument(yatzy_log):
    assert loads(b"\xef\xbb\xbf" + json.dumps(yatzy_log).encode()).total == 4
    with pytest.raises(ValueError, match="UTF-8"):
        loads(b"\xff\xfe")
    with pytest.raises(ValueError, match="nested too deeply"):
        loads("[" * 100_000)
    assert Position("yahtzee", "ones", 3, "11111", 1) == Position.make(
        "yahtzee", used="ones", upper_total=3, dice="11111", rolls_left=1)
    with pytest.raises(ValueError, match="yahtzee_bonus"):
        Position.make("yahtzee", used="yahtzee", dice="11111", yahtzee_bonus="no")
    with pytest.raises(TypeError, match="rules"):
        Position(5, (), 0, "11111", 1)


def test_the_coach_refuses_rules_it_does_not_offer_and_deep_logs():
    from yatzy_core.ui.widgets_coach import CoachApp
    app = CoachApp("yatzy", seed=1, outlook=False)
    with pytest.raises(ValueError, match="rules 'maxi-yatzy'"):
        app.update(rules="maxi-yatzy")
    assert app.rules == app.rules_w.value == "yatzy"
    app.load_log("[" * 100_000)
    assert "nested too deeply" in app.feedback and app.source == ""
    app.load_log(dumps(play_optimally(VARIANT, seed=0)))
    assert "variant of 'yahtzee-no-bonus'" in html.unescape(app.feedback) and app.game.rules.name == "yatzy"


# ---- the fault sweep: any hostile JSON grades or is one ValueError naming the field -------------

LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.integers(-10 ** 80, 10 ** 80),
                 st.floats(allow_nan=True), st.text(max_size=8), st.sampled_from(["11111", "ones", "-"]))
VALUE = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.sampled_from(["keep", "score", "dice", "x"]), inner, max_size=3),
                     max_leaves=12)
TOP = ("format", "version", "rules", "rule_file", "first_roll", "moves")


@FAST
@given(where=st.sampled_from(TOP + ("move", "keep", "score", "dice")), value=VALUE,
       delete=st.booleans(), deep=st.integers(0, 3000), bom=st.booleans(), move=st.integers(0, 2))
def test_hostile_logs_grade_or_name_the_field(solutions, where, value, delete, deep, bom, move):
    game = Game(solutions("yatzy").rules, dice="11112", solution=solutions("yatzy"))
    game.keep("1111", rolled="3")
    game.score("ones", next_dice="23455")
    game.keep("2345", rolled="6")
    log = to_log(game)
    target = log if where in TOP else log["moves"][move]
    key = "keep" if where == "move" and "keep" in target else where
    if where == "move":
        log["moves"][move] = value
    elif delete:
        target.pop(key, None)
    else:
        target[key] = value
    text = json.dumps(log)
    if deep:
        text = text.replace('"moves": [', '"moves": [' + "[" * deep, 1).replace("]}", "]" * deep + "]}", 1)
    try:
        got = loads(("\ufeff" if bom else "") + text)
    except ValueError as err:
        assert str(err).startswith(("log", "text")) and len(str(err)) < 600, str(err)
        return
    again = replay(to_log(got))                    # a graded game replays to the same grades
    assert [d.loss for d in again.decisions] == [d.loss for d in got.decisions]
    assert got.total == sum(got.scores.values()) + got.bonus


# ---- the coach's and the log's entry points: a bad argument is a TypeError or ValueError naming it

@pytest.fixture(scope="module")
def tiny_game():
    """A rule file's game one move in, its table solved here (no cache)."""
    rules = rulefile.loads(RULE_FILE)
    game = Game(rules, seed=1, solution=solve(rules, progress=False))
    game.play(game.advice()[0])
    return game


@pytest.mark.parametrize("call_, error, named", [
    (lambda g: Game(g.rules, solution="x"), TypeError, "solution must be a Solution .* or None, got str"),
    (lambda g: Game(g.rules, seed="abc", solution=g.solution), ValueError, "seed must be a whole number"),
    (lambda g: Game(g.rules, seed=-1, solution=g.solution), ValueError, "seed must be a whole number >= 0, got -1"),
    (lambda g: Game(g.rules, seed=True, solution=g.solution), ValueError, "seed must be a whole number"),
    (lambda g: Game(g.rules, seed=1, solution=g.solution).play("keep"), TypeError, "advice must be an Advice"),
    (lambda g: grade_to_beat("x", 30), TypeError, "game must be a coach.Game"),
    (lambda g: grade_to_beat(g, 30, targets="x"), TypeError, "targets must be a target table"),
    (lambda g: to_log("x"), TypeError, "game must be a coach.Game, got str"),
    (lambda g: dumps(None), TypeError, "game must be a coach.Game, got NoneType"),
    (lambda g: undo("x"), TypeError, "game must be a coach.Game"),
    (lambda g: Position.make("yahtzee", dice="12345", rolls_left=True), ValueError, "rolls_left .* got True"),
])
def test_bad_game_arguments_are_named(tiny_game, call_, error, named):
    with pytest.raises(error, match=named):
        call_(tiny_game)
    assert len(tiny_game.decisions) == 1                 # the game itself is as it was


def test_a_seed_may_still_be_a_numpy_whole_number_or_a_generator(tiny_game):
    same = [Game(tiny_game.rules, seed=s, solution=tiny_game.solution).position
            for s in (7, np.int64(7), np.random.default_rng(7))]
    assert same[0] == same[1] == same[2]


def test_dice_after_the_move_that_fills_the_card_are_refused(tiny_game):
    """No roll follows the last box: dice given there were dropped without a word."""
    game = Game(tiny_game.rules, seed=3, solution=tiny_game.solution)
    while not game.over:
        game.play(game.advice()[0])
    log = to_log(game)
    assert replay(log).summary().finished
    log["moves"][-1]["dice"] = list(log["first_roll"])
    with pytest.raises(ValueError, match="'dice' after the move that fills the card: no roll follows it"):
        replay(log)


def test_a_paper_games_fault_names_its_line(tiny_game):
    """A fault is named by the line of the text it is on (it was 'log move 3 ({...})', the log
    the lines become): a line's first roll (the log keeps it with the move before) included,
    comments and blank lines counted, a turn past the card's last box refused."""
    rules, (a, b) = tiny_game.rules, tiny_game.rules.box_names[:2]
    cases = {(f"666 {a}", f"119 {b}"): rf"^turns line 2 \('119 {b}'\): its first roll: dice must be whole numbers",
             (f"6 {a}",): rf"^turns line 1 \('6 {a}'\): its first roll: expected 3 dice",
             ("# a game", "", f"666 {a}", f"111 7 111 {b}"): rf"^turns line 4 \('111 7 111 {b}'\): .*kept dice \[7\]",
             tuple(f"666 {box}" for box in rules.box_names) + (f"222 {a}",):
                 rf"^turns line {rules.n_boxes + 1} \('222 {a}'\): a turn more than the card's {rules.n_boxes} boxes"}
    for lines, words in cases.items():
        with pytest.raises(ValueError, match=words):
            paper_game(rules, list(lines), solution=tiny_game.solution)
    assert paper_game(rules, [f"666 {a}", f"123 {b}"], solution=tiny_game.solution).summary().turns[0] == 2


def test_rules_of_the_same_name_that_differ_say_so(tiny_game):
    other = tiny_game.rules.with_(upper_bonus=tiny_game.rules.upper_bonus + 1)
    assert other.name == tiny_game.rules.name
    with pytest.raises(ValueError, match=r"are not the rules the log's game was played under \(another "
                                         r"rule set of the same name\); leave the rules out"):
        replay(to_log(tiny_game), rules=other)
