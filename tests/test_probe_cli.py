"""A second independent probe of the command line: checkpoint folders, dangling links, long
paths, saved-roll games in the command's words, what a goal's advice plays for, the points a
card holds, plurals. Each test fails on the code before its fix."""
from __future__ import annotations

import json
import os

import pytest

from test_probe_files import SIMULATE, SMALL, call, one_error_line

SAVED_TINY = "saved_rolls = true\n" + SMALL


@pytest.mark.parametrize("kind, words", [("file", "is not a folder"), ("empty", "empty path; name a folder"),
                                         ("deep", "its folder"), ("device", "is not a folder"),
                                         ("dangling link", "is not a folder")])
def test_a_checkpoint_must_be_a_folder_or_a_new_one_beside_others(tmp_path, monkeypatch, kind, words):
    """--checkpoint names a folder: a file there was a traceback (FileExistsError), an empty one
    was ignored and a mistyped deep path made every missing folder; now each is one line, before
    any solve."""
    monkeypatch.setattr("yatzy_core.engine.saved.solve_saved", lambda *a, **k: pytest.fail("solved"))
    rules = tmp_path / "saved.toml"
    rules.write_text(SAVED_TINY.replace("n_dice = 2\n", 'name = "saved-tiny"\nn_dice = 2\n', 1))
    (tmp_path / "afile").write_text("x")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    where = {"file": str(tmp_path / "afile"), "empty": "", "deep": str(tmp_path / "no" / "such" / "dir"),
             "device": "/dev/null", "dangling link": str(tmp_path / "dangling")}[kind]
    err = one_error_line(*call("solve", "--rules-file", str(rules), "--checkpoint", where),
                         start="yatzy: error: argument --checkpoint: ")
    assert words in err
    assert not (tmp_path / "no").exists() and (tmp_path / "afile").read_text() == "x"


def test_a_csv_named_by_a_dangling_link_is_refused_before_the_games(tmp_path, monkeypatch):
    """A link to nothing is a name already taken: refused at once (it was refused only after the
    games were played), the link left as it was; --force replaces the link, not its target."""
    monkeypatch.setattr("yatzy_core.players.simulation.simulate", lambda *a, **k: pytest.fail("ran"))
    link = tmp_path / "dangling.csv"
    link.symlink_to(tmp_path / "nowhere" / "x.csv")
    err = one_error_line(*call(*SIMULATE, "--csv", str(link)), start="yatzy: error: argument --csv: ")
    assert "exists (a link to a missing file); pass --force" in err
    assert link.is_symlink() and not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_a_long_path_is_a_path(tmp_path):
    """Paths may be as long as Linux allows (4,096), not the 200 characters of other text flags."""
    deep = tmp_path / ("d" * 120) / ("e" * 120)
    deep.mkdir(parents=True)
    rules = deep / "tiny.toml"
    rules.write_text(SMALL)
    assert len(str(rules)) > 250
    status, out, err = call("info", "--rules-file", str(rules))
    assert (status, err) == (0, "") and out.startswith("tiny\n2 dice with 6 faces, 3 rolls a turn\n")
    err = one_error_line(*call("info", "--rules-file", "/" + "x" * 5000), start="yatzy: error: argument --rules-file: ")
    assert "too long (5,001 characters, at most 4,096)" in err


def test_one_game_and_one_die_are_said_in_the_singular(tmp_path):
    status, out, _ = call("simulate", "--rules", "yahtzee-no-bonus", "--strategy", "random", "--games", "1", "--quiet")
    assert status == 0 and ": 1 game from seed 0 in " in out.splitlines()[0]
    one = tmp_path / "one.toml"
    one.write_text(SMALL.replace("n_dice = 2", "n_dice = 1"))
    err = one_error_line(*call("advise", "--rules-file", str(one), "--dice", "55"),
                         start="yatzy: error: argument --dice: ")
    assert "expected 1 die, got 2" in err


@pytest.mark.parametrize("argv, start, words", [
    (["advise", "--rules", "maxi-yatzy", "--dice", "123456", "--risk", "0.01"], "argument --risk: ",
     "advised for the mean only"),
    (["advise", "--rules", "maxi-yatzy", "--dice", "123456", "--goal", "300"], "argument --goal: ",
     "advised for the mean only"),
    (["distribution", "--rules", "maxi-yatzy"], "argument --rules: ", "yatzy solve --std"),
])
def test_a_saved_roll_game_is_refused_in_the_commands_words(argv, start, words, monkeypatch):
    """No 'SavedSolution' or 'engine.saved.solve_saved' for a command-line user: the flag and
    what the command does give instead, before any solve."""
    monkeypatch.setattr("yatzy_core.engine.saved.solve_saved", lambda *a, **k: pytest.fail("solved"))
    err = one_error_line(*call(*argv), start=f"yatzy: error: {start}")
    assert words in err and "Saved" not in err and "engine." not in err


def test_a_paper_game_of_maxi_yatzy_is_refused_naming_rules(tmp_path, monkeypatch):
    monkeypatch.setattr("yatzy_core.engine.saved.solve_saved", lambda *a, **k: pytest.fail("solved"))
    paper = tmp_path / "game.txt"
    paper.write_text("112566 chance\n")
    err = one_error_line(*call("grade", str(paper), "--paper", "--rules", "maxi-yatzy"),
                         start="yatzy: error: argument --rules: grading a game of 'maxi-yatzy' (saved rolls) needs")
    assert "8.7 GB in float32" in err


def test_a_json_log_of_maxi_yatzy_is_refused_naming_the_file(tmp_path, monkeypatch):
    """As the paper game: refused before the replay, in the command's words (the replay's own
    refusal says what to give in Python: 'solve_saved(rules, ...)')."""
    monkeypatch.setattr("yatzy_core.engine.saved.solve_saved", lambda *a, **k: pytest.fail("solved"))
    log = tmp_path / "game.json"
    log.write_text(json.dumps({"format": "yatzy-game-log", "version": 2, "rules": "maxi-yatzy",
                               "first_roll": [1, 1, 2, 5, 6, 6], "moves": [{"score": "chance", "saved": 2}]}))
    err = one_error_line(*call("grade", str(log)),
                         start=f"yatzy: error: argument FILE: {log}: grading a game of 'maxi-yatzy' (saved rolls) needs")
    assert "8.7 GB in float32" in err and "solve_saved" not in err


def test_advice_for_a_goal_says_the_goal_in_text(capsys):
    argv = ["advise", "--rules", "yatzy", "--dice", "66655", "--used",    # five boxes open: their subgame, quick
            "ones,twos,threes,fours,fives,sixes,one_pair,two_pairs,three_of_a_kind,four_of_a_kind",
            "--upper", "20", "--points", "60", "--top", "2"]                      # the card holds 60
    status, out, _ = call(*argv, "--beat", "160")
    lines = out.splitlines()
    assert status == 0 and lines[1] == "playing to beat 160: a final total of 161 or more (60 points on the card now)"
    assert lines[2].split()[-1] == "160)" and "P(> 160)" in lines[2]
    status, out, _ = call(*argv, "--goal", "161")
    assert out.splitlines()[1] == "playing to reach a final total of at least 161 (60 points on the card now)"
    assert "P(>= 161)" in out.splitlines()[2] and out.splitlines()[3:] == lines[3:]   # the same event, the same numbers


@pytest.mark.parametrize("extra, least", [(["--upper", "63", "--points", "97"], 98),     # 63 and the bonus 35
                                          (["--upper", "0", "--yahtzee-bonus", "--points", "49"], 50)])
def test_points_below_the_bonuses_on_the_card_are_refused(extra, least):
    """--points counts the card's points, bonuses included: below its upper total plus the upper
    bonus already earned (or the Yahtzee box's 50, flagged) the card cannot be."""
    used = ("ones,twos,threes,fours,fives,sixes,three_of_a_kind,yahtzee" if "63" in extra else   # late cards:
            "ones,twos,threes,fours,fives,sixes,three_of_a_kind,four_of_a_kind,full_house,yahtzee")  # subgames
    argv = ["advise", "--rules", "yahtzee", "--dice", "12345", "--used", used, *extra, "--goal", "300"]
    err = one_error_line(*call(*argv), start="yatzy: error: argument --points: ")
    assert f"is less than the {least} this card holds already" in err
    ok = [least if a == str(least - 1) else a for a in argv]
    status, out, _ = call(*map(str, ok), "--top", "1")
    assert status == 0 and "P(>= 300)" in out


@pytest.mark.parametrize("used, words", [("ones,ones", "used names ones more than once"),
                                         ("ones,", "used holds an empty box name")])
def test_a_box_named_twice_or_an_empty_name_is_refused(used, words):
    err = one_error_line(*call("advise", "--dice", "12345", "--used", used), start="yatzy: error: argument --used: ")
    assert words in err


def test_one_die_has_no_n_of_a_kind_box(tmp_path):
    one = tmp_path / "one.toml"
    one.write_text(SMALL.replace("n_dice = 2", "n_dice = 1"))
    status, out, _ = call("distribution", "--rules-file", str(one))
    assert status == 0 and "box scores" not in out and out.startswith("one: final score under optimal play (exact)\n")
    data = json.loads(call("distribution", "--rules-file", str(one), "--json")[1])
    assert data["n_of_a_kind_box"] is None and data["p_n_of_a_kind"] is None


@pytest.mark.parametrize("where", ["ckpt", "ckpt/", "existing", "."])
def test_a_checkpoint_folder_new_or_existing_is_taken(tmp_path, monkeypatch, where):
    """An existing folder, or a new one (relative too) in an existing folder, reaches the solve."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing").mkdir()
    seen = []
    monkeypatch.setattr("yatzy_core.engine.saved.solve_saved",
                        lambda *a, checkpoint=None, **k: seen.append(checkpoint) or pytest.skip("reached"))
    rules = tmp_path / "saved.toml"
    rules.write_text(SAVED_TINY)
    with pytest.raises(pytest.skip.Exception):
        call("solve", "--rules-file", str(rules), "--checkpoint", where)
    assert seen == [where]
