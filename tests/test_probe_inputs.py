"""The third hostile-input probe (issue 36, section 2): small inputs that asked for runaway
solves, Ctrl-C, a full disk and memory limits ending in tracebacks, and errors that named
neither the file nor the field. Each test fails on the code before its fix."""
from __future__ import annotations

import errno
import html
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from test_probe_files import SIMULATE, call, one_error_line
from yatzy_core.engine import solver
from yatzy_core.engine.subgame import subgame_rules
from yatzy_core.game.rules import get_rules

ROOT = Path(__file__).resolve().parents[1]


def _yatzy(argv, limit_bytes=None, code=None, **kwargs) -> subprocess.Popen:
    """`python -m yatzy_core ARGV` (or `python -c CODE`) in a child process, its address space
    limited to `limit_bytes` when given (`ulimit -v`)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "yatzy_core", *argv]
    return subprocess.Popen(command, cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=limit if limit_bytes else None, **kwargs)


# ---- 10: Ctrl-C is one line and status 130 ------------------------------------------------------

def test_ctrl_c_during_a_solve_is_one_line_and_status_130(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr("yatzy_core.cli.command.get_solution", interrupted)
    assert call("solve", "--rules", "yatzy") == (130, "", "yatzy: stopped (Ctrl-C); nothing half-done was saved\n")


def test_sigint_to_the_command_is_one_line_and_status_130():
    # SIGINT as a terminal delivers it: a child of a shell's background job starts with SIGINT
    # ignored, and Python then installs no KeyboardInterrupt handler (the test would wait it out)
    code = ("import signal, sys, time\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from yatzy_core.cli import command\n"
            "def slow(*a, **k):\n    print('solving', flush=True)\n    time.sleep(120)\n"
            "command.get_solution = slow\nsys.exit(command.main(['solve', '--rules', 'yatzy']))\n")
    child = _yatzy(None, code=code)
    assert child.stdout.readline() == "solving\n"
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out, err) == (130, "", "yatzy: stopped (Ctrl-C); nothing half-done was saved\n")


# ---- 11: a full disk under --csv keeps the summary and leaves no half file -----------------------

def test_a_full_disk_under_csv_is_one_line_and_keeps_the_summary(tmp_path, monkeypatch):
    import pandas as pd

    def full_disk(self, path, *args, **kwargs):
        Path(path).write_text("index,total\n0,1")         # a half file, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(pd.DataFrame, "to_csv", full_disk)
    target = tmp_path / "games.csv"
    status, out, err = call(*SIMULATE, "--csv", str(target))
    assert status == 1 and "Traceback" not in err and err.count("\n") == 1, err
    assert err == (f"yatzy: error: argument --csv: cannot write {target} (No space left on device); "
                   "the summary above is complete, the rows are not written\n")
    assert out.startswith("random on yahtzee-no-bonus: 2 games from seed 0") and "total" in out
    assert list(tmp_path.iterdir()) == []          # neither the target nor a temporary file


# ---- 14: the memory guard sees every limit; a MemoryError is one line ---------------------------

def test_available_memory_is_the_least_of_every_limit(monkeypatch):
    monkeypatch.setattr(solver, "_machine_free", lambda: 8 << 30)
    monkeypatch.setattr(solver, "_rlimit_room", lambda: None)
    monkeypatch.setattr(solver, "_cgroup_room", lambda: 3 << 30)
    assert solver.available_memory() == 3 << 30
    monkeypatch.setattr(solver, "_rlimit_room", lambda: 1 << 30)
    assert solver.available_memory() == 1 << 30
    monkeypatch.setattr(solver, "_cgroup_room", lambda: None)
    monkeypatch.setattr(solver, "_rlimit_room", lambda: None)
    assert solver.available_memory() == 8 << 30


def test_cgroup_limits_are_read_for_the_group_and_its_parents(tmp_path, monkeypatch):
    """v2: memory.max - memory.current of the group and each parent; v1: limit_in_bytes -
    usage_in_bytes; "max" and v1's huge number are no limit."""
    proc = tmp_path / "cgroup"
    proc.write_text("4:memory:/box/job\n0::/user.slice/app\n1:cpu:/\n")
    v2, v1 = tmp_path / "fs", tmp_path / "fs" / "memory"
    for folder, limit, usage in ((v2 / "user.slice" / "app", "max", "10"),
                                 (v2 / "user.slice", "5000000000", "1000000000"),
                                 (v1 / "box" / "job", "9223372036854771712", "5"),
                                 (v1 / "box", "7000000000", "2000000000")):
        folder.mkdir(parents=True, exist_ok=True)
        v1_ = folder.is_relative_to(v1)
        (folder / ("memory.limit_in_bytes" if v1_ else "memory.max")).write_text(limit + "\n")
        (folder / ("memory.usage_in_bytes" if v1_ else "memory.current")).write_text(usage + "\n")
    monkeypatch.setattr(solver, "PROC_CGROUP", str(proc))
    monkeypatch.setattr(solver, "CGROUP_ROOT", str(v2))
    assert solver._cgroup_room() == 4_000_000_000
    (v2 / "user.slice" / "app" / "memory.max").write_text("1000000010\n")
    assert solver._cgroup_room() == 1_000_000_000
    (v2 / "user.slice" / "memory.stat").write_text("anon 10\ninactive_file 600000000\nactive_file 7\n")
    assert solver._cgroup_room() == 1_000_000_000        # the app's room; its parent's is 4.6 GB now
    (v2 / "user.slice" / "app" / "memory.max").write_text("max\n")
    assert solver._cgroup_room() == 4_600_000_000        # page cache the kernel can take back is room
    proc.write_text("0::/\n")
    assert solver._cgroup_room() is None


def test_a_solve_past_ulimit_v_is_refused_in_one_line():
    """maxi-yatzy-no-saved-rolls needs about 1.96 GB; with 1 GB of address space the guard
    refuses it before the solve (it read only MemAvailable, and the solve ended in a
    MemoryError traceback)."""
    child = _yatzy(["solve", "--rules", "maxi-yatzy-no-saved-rolls", "--no-cache"], limit_bytes=1 << 30)
    out, err = child.communicate(timeout=300)
    assert child.returncode == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("yatzy: error: rules 'maxi-yatzy-no-saved-rolls': 89,128,960 states need "
                          "about 2.0 GB of memory, but only 0.") and "GB is available" in err


def test_a_memory_error_is_one_line(monkeypatch):
    def out_of_memory(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr("yatzy_core.cli.command.get_solution", out_of_memory)
    status, out, err = call("solve", "--rules", "yatzy")
    assert (status, out) == (1, "") and err.count("\n") == 1 and err.startswith("yatzy: error: out of memory"), err


# ---- 6: a small log holding a large rule file is refused before any solve or replay -------------

def _log(rule_file: str, name: str, first_roll, moves=()) -> str:
    return json.dumps({"format": "yatzy-game-log", "version": 2, "rules": name, "rule_file": rule_file,
                       "first_roll": list(first_roll), "moves": list(moves)})


@pytest.fixture
def no_solve(monkeypatch, private_cache):
    """Any solve fails the test (the refusal must come first)."""
    monkeypatch.setattr(solver, "_backward", lambda *a: pytest.fail("a solve started"))


def test_a_log_holding_a_large_rule_file_is_refused_before_the_solve(tmp_path, no_solve):
    from test_probe_files import MAXI_126
    text = _log(MAXI_126, "maxi-yatzy-no-saved-rolls", [1, 1, 2, 3, 4, 6])
    assert len(text) < 3000
    path = tmp_path / "big.json"
    path.write_text(text)
    err = one_error_line(*call("grade", str(path)), start=f"yatzy: error: argument FILE: {path}: its rules "
                                                          "'maxi-yatzy-no-saved-rolls' need about 5.9 GB ")
    assert err.endswith("(266,338,304 states), over the 2.5 GB a log's own rules get: give them with "
                        "--rules-file to grade it\n")


def test_the_coach_refuses_a_log_of_rules_it_does_not_offer_before_the_solve(monkeypatch):
    from test_probe_files import MAXI_126
    from yatzy_core.ui.widgets_coach import CoachApp
    app = CoachApp("yatzy", seed=1, outlook=False)
    monkeypatch.setattr(solver, "_backward", lambda *a: pytest.fail("a solve started"))
    for name, words in (("big", "the log's rules 'big' are not offered by the coach"),
                        ("yatzy", "the log's game was played under a variant of 'yatzy'")):
        rule_file = MAXI_126.replace('name = "maxi-yatzy-no-saved-rolls"', f'name = "{name}"')
        app.load_log(_log(rule_file, name, [1, 1, 2, 3, 4, 6]))
        assert words in html.unescape(app.feedback) and app.game.rules == get_rules("yatzy")


# ---- 15: a lone surrogate in a log's rules is refused while the log is read ---------------------

@pytest.mark.parametrize("where", ["name", "description"])
def test_a_lone_surrogate_in_a_logs_rules_names_the_file_and_field(tmp_path, no_solve, where):
    from test_probe_logs import RULE_FILE
    bad = "ok\ud800"
    rule_file = (RULE_FILE.replace('"ok"', f'"{bad}"') if where == "name"
                 else f'description = "{bad}"\n' + RULE_FILE)
    path = tmp_path / "game.json"
    path.write_text(_log(rule_file, bad if where == "name" else "ok", [1, 1, 6]), encoding="utf-8")
    field = "log 'rules' holds a lone surrogate" if where == "name" else "log 'rule_file': description: holds a lone surrogate"
    one_error_line(*call("grade", str(path)), start=f"yatzy: error: argument FILE: {path}: {field} ('\\ud800')")
    assert not list(path.parent.glob("cache/*"))        # nothing solved, nothing cached


def test_rules_made_in_python_refuse_a_lone_surrogate():
    with pytest.raises(ValueError, match=r"name holds a lone surrogate '\\udc80'"):
        get_rules("yatzy").with_(name="a\udc80")


# ---- 16: a log's rules that borrow a built-in name say how they differ --------------------------

def test_a_log_borrowing_a_built_in_name_says_how_its_rules_differ(tmp_path, private_cache):
    from test_probe_logs import RULE_FILE
    path = tmp_path / "game.json"
    path.write_text(_log(RULE_FILE.replace('"ok"', '"yatzy"').replace("upper_bonus = 0", "upper_bonus = 9000\n"
                                                                      "upper_bonus_threshold = 1"),
                         "yatzy", [1, 1, 6], [{"score": "ones", "dice": [6, 6, 6]}]))
    status, out, err = call("grade", str(path))
    assert status == 0 and err == "", err
    first = out.splitlines()[0]
    assert first == ("Rules 'yatzy' are the log's own, not the built-in yatzy: n_dice 3 (built-in 5); "
                     "upper_bonus_threshold 1 (built-in 63); upper_bonus 9000 (built-in 50); boxes ones, sixes, chance (built-in ones, twos, threes, fours, fives, "
                     "sixes, one_pair, two_pairs, three_of_a_kind, four_of_a_kind, small_straight, large_straight, "
                     "full_house, chance, yatzy)")
    status, out, err = call("grade", str(path), "--json")
    assert json.loads(out)["builtin_differences"][:1] == ["n_dice 3 (built-in 5)"]
    path.write_text(_log((ROOT / "yatzy_core/game/rulesets/yatzy.toml").read_text(), "yatzy",
                         [1, 1, 1, 1, 2]))
    status, out, err = call("grade", str(path), "--json")
    assert status == 0 and json.loads(out)["builtin_differences"] == [], err


# ---- 19: the Python API names the argument at fault ---------------------------------------------

def _api_cases():
    import numpy as np
    import pandas as pd
    import yatzy_core as Y
    from yatzy_core.engine.turn import ExpUtility, TargetLanes
    from yatzy_core.engine.turn_forward import second_moments
    from yatzy_core.game import rulefile
    from yatzy_core.game.scoring import Box, make_scorer
    from yatzy_core.players.registry import make_player
    from yatzy_core.players.simulation import summary
    from yatzy_core.players.study import comparison, run_study
    yatzy = get_rules("yatzy")
    small = yatzy.with_(name="small", boxes=yatzy.boxes[:1], upper_bonus=0)
    chance = Box("chance", make_scorer("chance"), max_score=30)
    return [
        (lambda: rulefile.loads(None), TypeError, r"text must be rule-file text \(str\), got NoneType"),
        (lambda: rulefile.loads(123), TypeError, "text must be rule-file text .*, got int"),
        (lambda: rulefile.loads(b'name = "x"'), TypeError, r"text must be rule-file text \(str\), got bytes: decode it"),
        (lambda: rulefile.dumps("yatzy"), TypeError, r"rules must be a Rules value \(get_rules\(name\)"),
        (lambda: rulefile.dumps(None), TypeError, "rules must be a Rules value .*, got NoneType"),
        (lambda: rulefile.load(None), TypeError, "path must be a rule file's path, got NoneType"),
        (lambda: Y.rest_of_game("x"), TypeError, r"position must be a Position \(Position.make\(...\)\), got str"),
        (lambda: Y.subgame_rules("yatzy", {"ones"}, 3), TypeError, "rules must be a Rules value"),
        (lambda: Y.subgame_rules(yatzy, {"ones", "nope"}, 3), ValueError, r"used holds \['nope'\], not boxes of rules 'yatzy'"),
        (lambda: Y.subgame_rules(yatzy, {"ones"}, 6), ValueError,
         r"upper_total 6 cannot be made with the used upper boxes \(ones; at most 5\)"),
        (lambda: Y.subgame_rules(yatzy, {"twos", "chance"}, 3), ValueError, "upper_total 3 cannot be made"),
        (lambda: Y.subgame_rules(yatzy, set(), -1), ValueError, "upper_total must be a whole number >= 0, got -1"),
        (lambda: Y.solve(small, progress=False, moments="yes"), TypeError, "moments must be True or False, got str"),
        (lambda: Y.solve(small, progress=False, dtype="x"), ValueError, "dtype must be float64 or float32, got 'x'"),
        (lambda: Y.solve(None), TypeError, r"rules must be a rule set's name \(str\) or Rules, got NoneType"),
        (lambda: Y.get_rules(123), TypeError, "rules must be a rule set's name .* got int"),
        (lambda: Y.rule_names("yes"), TypeError, "include_new must be True or False, got str"),
        (lambda: Y.StateSpace("yatzy"), TypeError, "rules must be a Rules value"),
        (lambda: Y.layer_sizes(None), TypeError, r"space must be a StateSpace \(StateSpace\(rules\)\), got NoneType"),
        (lambda: Y.brute_force_value("yatzy"), TypeError, "rules must be a Rules value"),
        (lambda: second_moments(None), TypeError, r"solution must be a Solution \(solve\(rules\)\), got NoneType"),
        (lambda: Y.turn_values(None, None, None), TypeError, "space must be a StateSpace"),
        (lambda: Y.advise(Y.Position.make(small, dice="12345"), use_cache="no"), TypeError,
         "use_cache must be True or False, got str"),
        (lambda: Y.optimal_play(small, "no"), TypeError, "use_cache must be True or False, got str"),
        (lambda: summary("x"), TypeError, r"frame must be a DataFrame of games \(simulate\), got str"),
        (lambda: run_study(small, strategies="random"), TypeError, "strategies must be a list of strategy names or None, got str"),
        (lambda: comparison("yatzy"), TypeError, "names must be a list of rule set names or None, got str"),
        (lambda: make_player(123, small), TypeError, "strategy must be a strategy name, a player class or a player, got int"),
        (lambda: Y.Rules(None, (chance,)), TypeError, "name must be text, got NoneType"),
        (lambda: Y.Rules("x", None), TypeError, "boxes must be a tuple of Box, got NoneType"),
        (lambda: Y.Rules("x", [chance]), TypeError, "boxes must be a tuple of Box, got list"),
        (lambda: Y.Rules("x", (chance,), n_dice="5"), ValueError, "n_dice must be a whole number >= 0, got '5'"),
        (lambda: Y.Rules("x", (chance,), upper_bonus=None), ValueError, "upper_bonus must be a whole number"),
        (lambda: Y.Rules("x", (chance,), joker="yes"), ValueError, "joker must be one of none, forced, free, got 'yes'"),
        (lambda: Y.Rules("x", (chance,), forced_order="no"), TypeError, "forced_order must be True or False"),
        (lambda: Box(None, make_scorer("chance")), TypeError, r"name must be a box name \(text\), got NoneType"),
        (lambda: Box("chance", None), TypeError, "scorer must be a function of the rolls"),
        (lambda: Box("sixes", make_scorer("upper", face=6), face="6"), ValueError, "face must be a whole number >= 1"),
        (lambda: ExpUtility("x"), ValueError, "theta must be a finite number, got 'x'"),
        (lambda: TargetLanes(None), ValueError, "n_points must be a whole number >= 1, got None"),
    ]


@pytest.mark.parametrize("case", range(40))
def test_api_faults_are_named_type_and_value_errors(case):
    call_, error, words = _api_cases()[case]
    with pytest.raises(error, match=words):
        call_()


def test_every_api_case_is_run():
    assert len(_api_cases()) == 40


def test_a_subgame_still_takes_what_a_position_holds():
    """The checks refuse only what no card holds: text like Position.make's, a capped total."""
    yatzy = get_rules("yatzy")
    assert subgame_rules(yatzy, "ones,twos", 7).upper_bonus_threshold == 56
    assert subgame_rules(yatzy, {"ones", "twos", "threes", "fours", "fives", "sixes"}, 105).upper_bonus == 0
