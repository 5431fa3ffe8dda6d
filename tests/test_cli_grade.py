"""`yatzy grade`: a saved log and a paper game graded from the command line, bad files named."""
import contextlib
import io
import json

from yatzy_core.cli import command as cli
from yatzy_core.advice.coach import play_optimally
from yatzy_core.advice.gamelog import dumps, paper_game
from yatzy_core.advice.beat_grades import grade_to_beat

PAPER = "11256 11 11136 111 11111 yatzy\n23456 large_straight\n"


def call(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_a_saved_log_is_graded_as_the_coach_did(tmp_path, solutions):
    solutions("yahtzee-no-bonus")
    game = play_optimally("yahtzee-no-bonus", seed=7)
    log = tmp_path / "game.json"
    log.write_text(dumps(game))
    status, out, err = call("grade", str(log))
    assert status == 0 and err == "" and out.strip() == str(game.summary())
    status, out, _ = call("grade", str(log), "--json", "--beat", "240")
    data = json.loads(out)
    assert status == 0 and data["total"] == game.total and data["optimal_moves"] == len(game.decisions)
    want = grade_to_beat(game, 240)
    assert data["beat"]["given_away"] == [g.given_away for g in want]
    assert data["beat"]["best_for_it"] == sum(g.optimal for g in want)


def test_a_paper_game_is_graded(tmp_path, solutions):
    solutions("yatzy")
    paper = tmp_path / "paper.txt"
    paper.write_text(PAPER)
    status, out, _ = call("grade", str(paper), "--paper", "--rules", "yatzy", "--json")
    data = json.loads(out)
    game = paper_game("yatzy", PAPER)
    assert status == 0 and data["points_so_far"] == game.total == 70  # yatzy 50, large straight 20
    assert data["finished"] is False and data["total"] is None        # 2 of 15 turns: no final total
    assert data["decisions"][0]["choice"] == "keep 1 1" and round(data["decisions"][0]["loss"], 2) == 1.50


def test_bad_files_are_one_line_naming_the_file(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 1_000_001)
    notjson = tmp_path / "x.json"
    notjson.write_text("{not json")
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00")
    for path, words in ((tmp_path / "missing.json", "cannot read"), (tmp_path, "not a file"),
                        (big, "bytes"), (binary, "not UTF-8"), (notjson, "not JSON")):
        status, out, err = call("grade", str(path))
        assert status == 2 and out == "" and err.count("\n") == 1 and words in err, err
        assert "Traceback" not in err
