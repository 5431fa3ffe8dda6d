"""The `yatzy` command: its output matches the library, and bad input is one line and exit 2."""
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from yatzy_core import __version__
from yatzy_core.cli import command as cli
from yatzy_core.engine import cache as cache_module
from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.cli.command import main
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace

ISSUE = ["advise", "--rules", "yahtzee", "--dice", "11112", "--rolls-left", "2"]


def run(capsys, *argv):
    """(exit status, stdout, stderr) of one in-process call."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_version(capsys):
    assert run(capsys, "--version") == (0, f"yatzy {__version__}\n", "")


# ---- advise -----------------------------------------------------------------------------------

def test_advise_table_is_ranked_and_aligned(capsys, solutions):
    solutions("yahtzee")   # cached first, so no progress bar reaches stderr
    status, out, err = run(capsys, *ISSUE)
    lines = out.splitlines()
    assert status == 0 and err == ""
    assert lines[0] == str(Position.make("yahtzee", dice="11112", rolls_left=2))
    assert lines[1].split() == ["rank", "action", "E[to", "come]", "loss"]
    assert lines[-1].startswith("E[to come]: the expected points still to come")
    ranked = advise(Position.make("yahtzee", dice="11112", rolls_left=2), solutions("yahtzee"))
    rows = lines[2:-1]
    assert len(rows) == len(ranked) == 9 + 13     # the keepers but all five; "score BOX now" for 13 boxes
    assert rows[0].split() == ["1", "keep", "1", "1", "1", "1", "270.2986", "0.0000"]
    for rank, (row, a) in enumerate(zip(rows, ranked), start=1):
        assert row.split()[0] == str(rank) and a.text in row and f"{a.loss:.4f}" in row
    assert "_" not in out and any(row.split()[1:5] == ["score", "Large", "straight", "now"] for row in rows)   # display names
    assert len({len(line) for line in lines[1:-1]}) == 1      # right-aligned numbers end together


def test_advise_json_is_the_library_answer(capsys, solutions):
    status, out, _ = run(capsys, *ISSUE, "--json")
    ranked = advise(Position.make("yahtzee", dice="11112", rolls_left=2), solutions("yahtzee"))
    assert status == 0 and json.loads(out) == [a.to_dict() for a in ranked]
    best = json.loads(out)[0]
    assert best == {"action": "keep", "keep": [1, 1, 1, 1], "expected": ranked[0].value, "loss": 0.0}
    assert best["expected"] == pytest.approx(270.2986, abs=5e-5) and best["expected"] != 270.2986  # full precision


def test_advise_options_reach_the_position(capsys, solutions):
    argv = ["advise", "--rules", "yahtzee", "--dice", "6,6,6,6,6", "--rolls-left", "0",
            "--used", "yahtzee,sixes", "--upper", "24", "--yahtzee-bonus", "--json", "--top", "3"]
    status, out, _ = run(capsys, *argv)
    p = Position.make("yahtzee", used={"yahtzee", "sixes"}, upper_total=24, dice=[6] * 5,
                      rolls_left=0, yahtzee_bonus=True)
    assert status == 0 and json.loads(out) == [a.to_dict() for a in advise(p, solutions("yahtzee"))[:3]]
    assert all(d["action"] == "box" for d in json.loads(out))


def test_readme_example_runs(capsys, solutions):
    argv = ["advise", "--rules", "yatzy", "--dice", "3,3,5,5,6", "--rolls-left", "0",
            "--used", "ones,twos", "--upper", "6", "--json"]
    status, out, _ = run(capsys, *argv)
    p = Position.make("yatzy", used={"ones", "twos"}, upper_total=6, dice="33556", rolls_left=0)
    assert status == 0 and json.loads(out) == [a.to_dict() for a in advise(p, solutions("yatzy"))]


def test_top_limits_the_table(capsys, solutions):
    status, out, _ = run(capsys, *ISSUE, "--top", "3")
    assert status == 0 and len(out.splitlines()) == 2 + 3 + 1    # position, head, 3 rows, legend


# ---- info and solve -----------------------------------------------------------------------------

def test_info_lists_counts_boxes_and_bonuses(capsys):
    status, out, _ = run(capsys, "info", "--rules", "yahtzee")
    counts = StateSpace(get_rules("yahtzee")).counts()
    assert status == 0
    assert f"reachable turn states: {counts['reachable_turn_states']:,}" in out
    assert f"turn states: {counts['turn_states']:,}" in out
    assert f"naive positions: {counts['naive_positions']:,}" in out
    assert "reachable turn states: 536,448" in out
    assert all(name in out for name in get_rules("yahtzee").box_names)
    assert "\n  large_straight   Large straight   lower    max 40\n" in out       # the name typed, the name shown
    assert "upper bonus: 35 at 63" in out
    assert "yahtzee bonus: 100 per extra yahtzee, joker rule: forced" in out
    assert "yahtzee bonus: none" in run(capsys, "info", "--rules", "yatzy")[1]


@pytest.fixture
def fake_solver(monkeypatch, tmp_path, solutions):
    """A private cache directory, and a solver that hands back the real table and counts calls."""
    real = solutions("yahtzee-no-bonus")       # fetched before the cache directory moves
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    calls = []

    def solve(rules, progress=True, **kwargs):
        calls.append(rules.name)
        return real
    monkeypatch.setattr(cache_module, "solve", solve)
    return calls


def test_solve_no_cache_neither_reads_nor_writes(capsys, tmp_path, fake_solver, solutions):
    status, out, _ = run(capsys, "solve", "--rules", "yahtzee-no-bonus", "--no-cache")
    assert status == 0 and out.splitlines()[0] == "expected score: 245.8708"
    assert "time:" in out and list(tmp_path.iterdir()) == [] and fake_solver == ["yahtzee-no-bonus"]
    # a cached table that differs from the solver's (doubled) is read without --no-cache only
    real = solutions("yahtzee-no-bonus")
    second = None if real.second is None else real.second * 4
    path = cache_module.save(dataclasses.replace(real, values=real.values * 2, second=second),
                             cache_module.cache_path(real.rules))
    before = path.read_bytes()
    cached = run(capsys, "solve", "--rules", "yahtzee-no-bonus")[1]
    assert cached.startswith("expected score: 491.7415\n") and fake_solver == ["yahtzee-no-bonus"]
    # the two times say what each is: this load, and the solve when the table was made
    assert re.fullmatch(r"time: loaded from the cache in \d+\.\d\d s; solving it took "
                        rf"{real.seconds:.2f} s when it was made", cached.splitlines()[1])
    fresh = run(capsys, "solve", "--rules", "yahtzee-no-bonus", "--no-cache")[1]
    assert fresh.startswith("expected score: 245.8708\n")
    assert re.fullmatch(r"time: solved in \d+\.\d\d s", fresh.splitlines()[1])
    assert path.read_bytes() == before and len(fake_solver) == 2


# ---- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["advise", "--rules", "yahtzy", "--dice", "11112"], "argument --rules: unknown rules 'yahtzy'; choose one of: yahtzee"),
    (["info", "--rules", "nope"], "argument --rules: unknown rules 'nope'"),
    (["solve", "--rules", "nope"], "argument --rules: unknown rules 'nope'"),
    (["advise", "--dice", "1111"], "argument --dice: expected 5 dice, got 4"),
    (["advise", "--dice", "1,1,1,1,2,3"], "argument --dice: expected 5 dice, got 6"),
    (["advise", "--dice", "11117"], "argument --dice: dice must be whole numbers 1..6, got [7]"),
    (["advise", "--dice", "11a12"], "argument --dice: cannot read dice '11a12'"),
    (["advise", "--dice", "11112", "--used", "ones,fullhouse"],
     "argument --used: unknown box 'fullhouse' for rules 'yahtzee'; boxes are: ones"),
    (["advise", "--dice", "11112", "--upper", "5"],
     "argument --upper: upper total 5 cannot be made with the used upper boxes (none)"),
    (["advise", "--dice", "11112", "--used", "twos", "--upper", "3"], "argument --upper: upper total 3 cannot be made"),
    (["advise", "--dice", "11112", "--rolls-left", "3"], "argument --rolls-left: rolls_left counts the rerolls still allowed: 0..2, got 3"),
    (["advise", "--dice", "11112", "--rolls-left", "-1"], "argument --rolls-left: rolls_left counts the rerolls still allowed: 0..2, got -1"),
    (["advise", "--dice", "11112", "--yahtzee-bonus"], "argument --yahtzee-bonus: the Yahtzee bonus flag needs the 'yahtzee' box used"),
    (["advise", "--rules", "yatzy", "--dice", "11112", "--used", "yatzy", "--yahtzee-bonus"],
     "argument --yahtzee-bonus: rules 'yatzy' have no Yahtzee bonus"),
    (["advise", "--dice", "11112", "--used", ",".join(get_rules("yahtzee").box_names)], "argument --used: all boxes are used"),
    (["advise", "--dice", "11112", "--top", "0"], "argument --top: must be at least 1, got 0"),
    (["advise", "--dice", "11112", "--rolls-left", "x"], "argument --rolls-left: invalid int value: 'x'"),
    (["advise"], "required: --dice"),
    (["bogus"], "invalid choice: 'bogus'"),
    ([], "required: COMMAND"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("yatzy: error: ") and message in err
    assert "Traceback" not in err


def test_a_new_subcommand_is_one_function(capsys, monkeypatch):
    def add_hello_parser(subparsers):
        p = subparsers.add_parser("hello")
        p.set_defaults(run=lambda args: print("hi") or 0)
    monkeypatch.setattr(cli, "SUBCOMMANDS", cli.SUBCOMMANDS + [add_hello_parser])
    assert run(capsys, "hello") == (0, "hi\n", "")


# ---- as real processes ----------------------------------------------------------------------------

def test_python_m_yatzy_core(tmp_path):
    done = subprocess.run([sys.executable, "-m", "yatzy_core", "--version"], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"yatzy {__version__}\n")
    bad = subprocess.run([sys.executable, "-m", "yatzy_core", "advise", "--dice", "1111"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr == ("yatzy: error: argument --dice: expected 5 dice, got 4: [1, 1, 1, 1] "
                                                  "(dice are written 11112, 1,1,1,1,2 or 1 1 1 1 2)\n")


def test_console_script(solutions):
    script = shutil.which("yatzy", path=str(Path(sys.executable).parent)) or shutil.which("yatzy")
    if script is None:
        pytest.skip("the yatzy console script is not installed (pip install -e .)")
    solutions("yahtzee")  # make sure the cache holds the table the command reads
    done = subprocess.run([script, *ISSUE, "--json", "--top", "1"], capture_output=True, text=True,
                          timeout=120, env=os.environ.copy())
    assert done.returncode == 0, done.stderr
    [best] = json.loads(done.stdout)
    assert best == {"action": "keep", "keep": [1, 1, 1, 1], "expected": best["expected"], "loss": 0.0}
    assert best["expected"] == pytest.approx(270.2986, abs=5e-5)


def test_solve_prints_the_exact_std_on_request(capsys, solutions):
    solutions("yahtzee-no-bonus")
    status, out, err = run(capsys, "solve", "--rules", "yahtzee-no-bonus", "--std")
    lines = out.splitlines()
    assert status == 0 and lines[0] == "expected score: 245.8708"
    assert lines[2].startswith("std: 39.8201 (")


def test_a_rule_set_name_is_resolved_once(capsys, monkeypatch):
    """`yatzy advise` resolves --rules to its Rules once, when the flags are read; every layer
    below is handed the value (get_rules passes it through), never the name to look up again."""
    from yatzy_core.game import rules as rules_module
    names = []

    def counting(name):
        if isinstance(name, str):
            names.append(name)
        return real(name)
    real = rules_module.get_rules
    for module in [m for n, m in sys.modules.items() if n.startswith("yatzy_core") and m is not None]:
        if getattr(module, "get_rules", None) is real:
            monkeypatch.setattr(module, "get_rules", counting)
    yatzy = get_rules("yatzy")
    used = ",".join(n for n in yatzy.box_names if n != "chance")
    status, out, _ = run(capsys, "advise", "--rules", "yatzy", "--dice", "12346", "--rolls-left", "0", "--used", used)
    assert (status, names) == (0, ["yatzy"]) and "score Chance" in out     # the one box left, by its display name


@pytest.mark.parametrize("dice, message", [
    (["1", "2", "3", "4", "7"], "argument --dice: dice must be whole numbers 1..6, got [7] in [1, 2, 3, 4, 7] "
                                "(dice are written 11112, 1,1,1,1,2 or 1 1 1 1 2)"),
    (["1", "2", "3", "4"], "argument --dice: expected 5 dice, got 4: [1, 2, 3, 4] (dice are written 11112, "
                           "1,1,1,1,2 or 1 1 1 1 2)"),
])
def test_dice_written_one_a_word_are_read_and_a_wrong_die_says_how_dice_are_written(capsys, dice, message):
    status, out, err = run(capsys, "advise", "--rules", "yahtzee", "--dice", *dice, "--rolls-left", "0", "--top", "1")
    assert (status, out, err) == (2, "", f"yatzy: error: {message}\n")
    spaced = run(capsys, "advise", "--rules", "yahtzee", "--dice", "1", "2", "3", "4", "5", "--rolls-left", "0")
    assert spaced == run(capsys, "advise", "--rules", "yahtzee", "--dice", "12345", "--rolls-left", "0")
