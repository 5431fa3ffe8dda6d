"""The third hostile-input probe (issue 36, section 2): small inputs that asked for runaway
solves, Ctrl-C, a full disk and memory limits ending in tracebacks, and errors that named
neither the file nor the field. Each test fails on the code before its fix."""
from __future__ import annotations

import errno
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
    assert call("solve", "--rules", "yatzy") == (130, "", "yatzy: interrupted\n")


def test_sigint_to_the_command_is_one_line_and_status_130():
    code = ("import sys, time\nfrom yatzy_core.cli import command\n"
            "def slow(*a, **k):\n    print('solving', flush=True)\n    time.sleep(120)\n"
            "command.get_solution = slow\nsys.exit(command.main(['solve', '--rules', 'yatzy']))\n")
    child = _yatzy(None, code=code)
    assert child.stdout.readline() == "solving\n"
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out, err) == (130, "", "yatzy: interrupted\n")


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
