"""`yatzy distribution`: its figures are the ScoreDistribution's, and bad input is one line, exit 2."""
import json

import numpy as np
import pytest

from yatzy_core.cli.command import main
from yatzy_core.objectives.distribution import optimal_play


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def play():
    return optimal_play("yahtzee-no-bonus", progress=False)


def test_json_is_the_distribution(capsys, play):
    status, out, err = run(capsys, "distribution", "--rules", "yahtzee-no-bonus", "--json")
    assert status == 0 and err == ""
    got, d = json.loads(out), play.distribution
    assert got["rules"] == "yahtzee-no-bonus"
    assert got["mean"] == pytest.approx(245.870774514, abs=1e-9) == d.mean
    assert got["std"] == pytest.approx(39.8201, abs=1e-4) and got["std"] == d.std
    assert got["quantiles"] == {f"{100 * q:g}": d.quantile(q) for q in (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)}
    assert got["p_at_least"] == {str(x): d.p_at_least(x) for x in (150, 200, 250, 300, 350)}
    assert got["p_upper_bonus"] == play.bonus_probabilities["upper_bonus"]
    assert got["n_of_a_kind_box"] == "yahtzee"
    assert got["p_n_of_a_kind"] == pytest.approx(15.8938 / 50, abs=1e-5)
    assert np.array_equal(got["pmf"], d.probabilities)


def test_text(capsys, play):
    status, out, _ = run(capsys, "distribution", "--rules", "yahtzee-no-bonus")
    d = play.distribution
    lines = out.splitlines()
    assert status == 0 and len(lines) == 6
    assert lines[0] == "yahtzee-no-bonus: final score under optimal play (exact)"
    assert lines[1] == f"mean {d.mean:.4f}, std {d.std:.4f}" == "mean 245.8708, std 39.8201"
    assert lines[2] == "quantiles: " + ", ".join(
        f"{q}% {d.quantile(q / 100)}" for q in (1, 5, 25, 50, 75, 95, 99))
    assert lines[3].startswith(f"P(total >= T): 150 {d.p_at_least(150):.6f}, 200 ")
    assert lines[4] == f"P(upper bonus): {play.bonus_probabilities['upper_bonus']:.6f}"
    assert lines[5] == f"P(yahtzee box scores): {play.bonus_probabilities['n_of_a_kind']:.6f}"


@pytest.mark.parametrize("argv, message", [
    (["--rules", "nope"], "argument --rules: unknown rules 'nope'"),
    (["--rules", "yatzy", "--rules-file", "x.toml"], "argument --rules-file: not allowed with argument --rules"),
    (["--rules-file", "/no/such/rules.toml"], "cannot read the rule file"),
    (["--json", "--top", "3"], "unrecognized arguments: --top 3"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = run(capsys, "distribution", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err


RULE_FILE = ('name = "three-dice"\nn_dice = 3\nrolls_per_turn = 2\nupper_bonus = 5\nupper_bonus_threshold = 2\n'
             '[[boxes]]\nname = "ones"\nscorer = "upper"\nface = 1\n[[boxes]]\nname = "pair"\nscorer = "pairs"\n'
             'count = 1\n[[boxes]]\nname = "run"\nscorer = "run"\nlength = 3\npoints = 10\n'
             '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


@pytest.fixture(scope="module")
def rule_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "three-dice.toml"
    path.write_text(RULE_FILE)
    return str(path)


@pytest.mark.parametrize("flag, value, goal", [("--goal", "30", 30), ("--beat", "29", 30)])
def test_goal_and_beat_are_the_target_policys_distribution(capsys, rule_file, flag, value, goal):
    from yatzy_core.game.rulefile import loads
    from yatzy_core.objectives.policy_play import target_play
    from yatzy_core.objectives.targets import solve_targets
    rules = loads(RULE_FILE)
    expected = target_play(solve_targets(rules, 40), goal).distribution
    status, out, err = run(capsys, "distribution", "--rules-file", rule_file, flag, value, "--json")
    got = json.loads(out)
    assert status == 0 and err == ""
    assert got["policy"] == (f"goal {goal}" if flag == "--goal" else f"beat {goal - 1}")
    assert got["goal"] == goal and got["p_goal"] == pytest.approx(expected.p_at_least(goal), abs=1e-6)
    assert np.allclose(got["pmf"], expected.probabilities, atol=1e-6)   # the cached table is float32
    assert got["mean"] == pytest.approx(expected.mean, abs=1e-5)


def test_risk_is_the_risk_policys_distribution(capsys, rule_file):
    status, out, _ = run(capsys, "distribution", "--rules-file", rule_file, "--risk", "-0.1", "--json")
    got = json.loads(out)
    x = np.arange(len(got["pmf"]))
    from yatzy_core.game.rulefile import loads
    from yatzy_core.objectives.risk import solve_risk
    u = solve_risk(loads(RULE_FILE), [-0.1])[0, 0]
    assert status == 0 and got["policy"] == "risk theta=-0.1"
    assert np.log(got["pmf"] @ np.exp(-0.1 * x)) / -0.1 == pytest.approx(np.log(-u) / -0.1, abs=1e-9)


def test_the_text_names_the_policy(capsys, rule_file):
    status, out, _ = run(capsys, "distribution", "--rules-file", rule_file, "--goal", "30")
    lines = out.splitlines()
    assert status == 0 and lines[0] == "three-dice: final score under the goal 30 policy (exact)"
    assert lines[2].startswith("P(total >= 30): 0.")


@pytest.mark.parametrize("argv, message", [
    (["--goal", "20", "--beat", "19"], "argument --beat: not allowed with argument --goal"),
    (["--goal", "20", "--risk", "0.1"], "argument --risk: not allowed with argument --goal"),
    (["--goal", "-1"], "argument --goal: must be at least 0"),
    (["--goal", "many"], "argument --goal: invalid int value"),
    (["--risk", "0"], "argument --risk: theta must be a finite number other than 0 (0 is MaxMean)"),
    (["--risk", "50"], "argument --risk: theta must be a number with"),
    (["--risk", "x"], "argument --risk: invalid number"),
    (["--goal", "1500"], "argument --goal: no game of yahtzee-no-bonus reaches 1500 points"),
    (["--beat", "1499"], "argument --beat: no game of yahtzee-no-bonus reaches 1500 points"),
])
def test_bad_policy_flags_are_one_line_and_exit_2(capsys, argv, message):
    status, out, err = run(capsys, "distribution", "--rules", "yahtzee-no-bonus", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err
