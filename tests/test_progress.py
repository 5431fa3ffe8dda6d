"""Feedback on long work from Python too (issue 44): a call that solves a table for minutes says
what it solves and shows a bar, as the command does; one switch (`yatzy_core.progress(False)`,
`YATZY_PROGRESS=0`) silences both; a kernel's first compilation and a held numba cache lock are
said at once instead of a silent wait."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import yatzy_core
from test_cache_lock import held  # noqa: F401 (a fixture: another process holds the lock)
from test_probe_cache import SEVEN
from yatzy_core.advice.advisor import advise
from yatzy_core.engine import progress
from yatzy_core.engine.compiled import cache_lock, first_use, kernel
from yatzy_core.engine.position import Position
from yatzy_core.objectives import tables
from yatzy_core.objectives.goals import AtLeast

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def slow_rates(monkeypatch):
    """Rates a million times the measured ones: the small game's table is announced."""
    monkeypatch.setattr(tables, "TABLE_LANE_SECONDS", tables.TABLE_LANE_SECONDS * 1e6)


@pytest.fixture
def switch():
    """progress as a test sets it, restored afterwards."""
    before = progress.progress()
    yield progress.progress
    progress.progress(before)


def lines(err: str) -> list[str]:
    return [line for line in err.replace("\r", "\n").splitlines() if line.strip()]


def test_advise_for_a_goal_from_python_announces_its_table_and_shows_a_bar(capsys, private_cache, slow_rates,
                                                                            switch):
    switch(True)
    position = Position.make(SEVEN, dice="12", rolls_left=1)
    ranked = advise(position, objective=AtLeast(20))
    said = lines(capsys.readouterr().err)
    assert ranked[0].measure != "expected"
    [announced] = [line for line in said if line.startswith("yatzy: ")]
    assert announced.startswith("yatzy: solving the whole target table of seven (every total up to ")
    assert any(line.startswith("target table seven:") for line in said), said     # the tqdm bar
    assert advise(position, objective=AtLeast(20)) == ranked          # cached now: nothing said
    assert capsys.readouterr().err == ""


def test_one_switch_silences_the_announcement_and_the_bar(capsys, private_cache, slow_rates, switch):
    assert yatzy_core.progress is progress.progress
    assert switch(False) is True
    ranked = advise(Position.make(SEVEN, dice="12", rolls_left=1), objective=AtLeast(20))
    assert ranked and capsys.readouterr().err == ""
    progress.announce("slow work", 600)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("value, on", [("0", False), ("off", False), ("1", True), ("", True)])
def test_the_environment_variable_sets_the_switch_at_import(value, on):
    code = "import yatzy_core; print(yatzy_core.progress())"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "YATZY_PROGRESS": value}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout == f"{on}\n", done.stderr


def test_a_kernel_s_first_compilation_is_said_once_before_it(capsys, tmp_path, monkeypatch, switch):
    switch(True)
    fresh = SimpleNamespace(signatures=[], _cache=SimpleNamespace(
        _cache_file=SimpleNamespace(_index_path=str(tmp_path / "kernel.nbi"))))
    monkeypatch.setattr(kernel, "_solve_groups", fresh)
    first_use.announce_compiling("kernel._solve_groups", "the solver's kernel", 30)
    assert capsys.readouterr().err == ("yatzy: compiling the solver's kernel (first use on this machine; kept in "
                                       "numba's cache): about 30 s on 2 cores (longer on a busy machine)\n")
    (tmp_path / "kernel.nbi").touch()                  # in numba's disk cache now: read, not compiled
    first_use.announce_compiling("kernel._solve_groups", "the solver's kernel", 30)
    assert capsys.readouterr().err == ""


# ---- a held numba cache lock ---------------------------------------------------------------------

def test_a_held_cache_lock_is_said_at_once_with_its_file_and_holder(tmp_path, monkeypatch, capsys, held):  # noqa: F811
    monkeypatch.setattr(cache_lock, "NOTICE_SECONDS", 0.05)
    monkeypatch.setattr(cache_lock, "LOCK_WAIT_SECONDS", 0.5)
    holder = held(tmp_path)
    lock = str(tmp_path / cache_lock.LOCK_FILE)
    with pytest.warns(UserWarning, match="held by another process for over 0.5 s"):
        with cache_lock.cache_folder_lock(str(tmp_path), exclusive=True):
            pass
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"yatzy: waiting for numba's cache lock {lock}, held by process {holder.pid} (")
    assert err.endswith("going on without it after 0.5 s; Ctrl-C to stop\n")


def test_ctrl_c_while_waiting_for_the_lock_stops_the_command(tmp_path, held):  # noqa: F811
    """A command that finds the lock held says so (no silent wait) and stops on SIGINT with its
    one line and 130; it is never left waiting out the full time."""
    holder = held(tmp_path)
    code = ("import signal, sys\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from yatzy_core.engine.compiled import cache_lock as c\nc.LOCK_WAIT_SECONDS = 600\n"
            "from yatzy_core.cli import command\n"
            "def solve(*a, **k):\n    with c.cache_folder_lock(sys.argv[1], exclusive=False):\n        pass\n"
            "command.get_solution = solve\nsys.exit(command.main(['solve', '--rules', 'yatzy']))\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    first = child.stderr.readline()                     # said at once: waits for it, never a fixed sleep
    assert first.startswith(f"yatzy: waiting for numba's cache lock {tmp_path / cache_lock.LOCK_FILE}, "
                            f"held by process {holder.pid} ("), first
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out, err) == (130, "", "yatzy: stopped (Ctrl-C); nothing half-done was saved\n")
