"""`yatzy advise --goal/--beat/--points/--risk` and `yatzy solve --goal`: the numbers are the
goal engine's, and every bad flag is one line naming it, exit status 2, before any work."""
import json

import pytest

from yatzy_core.engine.position import Position
from yatzy_core.cli.command import main
from yatzy_core.advice.objective_advice import target_advice

LATE = ["advise", "--rules", "yahtzee", "--dice", "66612", "--rolls-left", "1", "--upper", "40",
        "--used", "ones,twos,threes,fours,fives,three_of_a_kind,four_of_a_kind,full_house,small_straight"]   # at most 155 points


def run(capsys, argv):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_goal_ranks_by_the_probability_of_reaching_it(capsys):
    status, out, _ = run(capsys, LATE + ["--points", "150", "--goal", "200", "--json", "--top", "2"])
    assert status == 0
    rows = json.loads(out)
    position = Position.make("yahtzee", used=LATE[-1].split(","), upper_total=40, dice="66612", rolls_left=1)
    want = target_advice(position, 150, 200)
    assert rows[0] == {"action": "keep", "keep": [6, 6, 6], "probability": want[0].probability, "loss": 0.0}
    assert rows[0]["probability"] == pytest.approx(0.740948, abs=1e-6)
    assert rows[1]["probability"] < rows[0]["probability"]


def test_beat_is_the_goal_one_more(capsys):
    beat = run(capsys, LATE + ["--points", "150", "--beat", "199", "--json"])[1]
    goal = run(capsys, LATE + ["--points", "150", "--goal", "200", "--json"])[1]
    assert beat == goal


def test_a_goal_already_reached_is_certain(capsys):
    status, out, _ = run(capsys, LATE + ["--points", "150", "--goal", "130", "--json"])
    assert status == 0 and {row["probability"] for row in json.loads(out)} == {1.0}


def test_risk_ranks_by_certainty_equivalent(capsys):
    status, out, _ = run(capsys, ["advise", "--rules", "yahtzee-no-bonus", "--dice", "12345",
                                  "--rolls-left", "0", "--used", ",".join(LATE[-1].split(",")[:-1] + ["yahtzee"]),
                                  "--upper", "40", "--risk", "0.1", "--json"])
    rows = json.loads(out)
    assert status == 0 and rows[0]["box"] == "large_straight"
    assert rows[0]["certainty_equivalent"] > rows[-1]["certainty_equivalent"]


@pytest.mark.parametrize("extra, flag", [
    (["--points", "3"], "--points"),                       # points without a goal
    (["--points", "10", "--goal", "30"], "--points"),     # fewer points than the upper total 40
    (["--goal", "-1"], "--goal"),
    (["--beat", "x"], "--beat"),
    (["--goal", "5000"], "--goal"),
    (["--goal", "30", "--beat", "30"], "--beat"),
    (["--goal", "30", "--risk", "0.1"], "--risk"),
    (["--risk", "0"], "--risk"),
    (["--risk", "2"], "--risk"),
    (["--risk", "nan"], "--risk"),
])
def test_bad_goal_flags_are_one_line_naming_the_flag(capsys, extra, flag):
    status, out, err = run(capsys, LATE + extra)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and f"argument {flag}" in err


def test_solve_goal_prints_both_policies(capsys, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text('n_dice = 2\nupper_bonus = 0\n[[boxes]]\nname = "sixes"\nscorer = "upper"\nface = 6\n'
                    '[[boxes]]\nname = "doubles"\nscorer = "all_same"\npoints = 10\n'
                    '[[boxes]]\nname = "chance"\nscorer = "chance"\n')
    status, out, _ = run(capsys, ["solve", "--rules-file", str(path), "--goal", "20", "--no-cache"])
    assert status == 0
    line = out.splitlines()[-1]
    assert line.startswith("P(final >= 20): playing to reach it 0.")
    reach, mean = (float(line.split(" it ")[1].split(",")[0]), float(line.split("mean ")[1].split(" ")[0]))
    assert reach >= mean
    assert run(capsys, ["solve", "--goal", "-3"])[0] == 2
