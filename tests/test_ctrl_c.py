"""Ctrl-C during long work (issue 44): every table solver runs its kernel through
`chunked.for_each_chunk`, so a stop asked for mid-solve ends it at the next chunk; the values do
not depend on how a layer is sliced; the CLI says one line, exits 130 and leaves no file.

A stop is asked for from inside a kernel call (`request_stop`), as the Ctrl-C handler would:
the tests check the mechanism, never a time."""
from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from test_probe_cache import SEVEN
from test_saved_rolls import GAMES
from yatzy_core.cli.command import main
from yatzy_core.engine import chunked, saved, solver, table_solver
from yatzy_core.engine.chunked import Stopped, clear_stop, for_each_chunk, request_stop
from yatzy_core.engine.compiled import forward, kernel, policy_forward, saved_kernel
from yatzy_core.game.rulefile import dumps
from yatzy_core.objectives import risk, targets

ROOT = Path(__file__).resolve().parents[1]
STOPPED = "yatzy: stopped (Ctrl-C); nothing half-done was saved\n"


@pytest.fixture(autouse=True)
def no_stop_left():
    clear_stop()
    yield
    clear_stop()


@pytest.fixture
def seven_file(tmp_path):
    path = tmp_path / "seven.toml"
    path.write_text(dumps(SEVEN))
    return str(path)


def one_at_a_time(monkeypatch, *modules):
    """Slices of one item in `modules`' chunk loops: many chunks even in a tiny game."""
    for module in modules:
        monkeypatch.setattr(module, "for_each_chunk", functools.partial(for_each_chunk, size=1))


def whole(monkeypatch, *modules):
    """One kernel call a layer, as before the chunk loop."""
    def at_once(items, work, bar=None, **_):
        work(items)
        if bar is not None:
            bar.update(len(items))
    for module in modules:
        monkeypatch.setattr(module, "for_each_chunk", at_once)


def stopping_at(monkeypatch, module, name, call):
    """`module.name` (a kernel) asks for a stop during its `call`-th call; returns the calls made."""
    real, calls = getattr(module, name), []

    def kernel_call(*args, **kwargs):
        calls.append(1)
        out = real(*args, **kwargs)
        if len(calls) == call:
            request_stop()             # what Ctrl-C does while the kernel holds the main thread
        return out
    monkeypatch.setattr(module, name, kernel_call)
    return calls


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


# ---- the values do not depend on the slicing -----------------------------------------------------

def test_values_and_moments_sliced_one_group_at_a_time_are_bit_identical(monkeypatch):
    whole(monkeypatch, solver)
    before = solver.solve(SEVEN, progress=False, moments=True)
    one_at_a_time(monkeypatch, solver)
    after = solver.solve(SEVEN, progress=False, moments=True)
    assert np.array_equal(before.values, after.values) and np.array_equal(before.second, after.second)
    assert round(after.expected_score, 4) == round(before.expected_score, 4) > 0


def test_target_and_risk_tables_sliced_one_state_at_a_time_are_bit_identical(monkeypatch):
    whole(monkeypatch, table_solver)
    table, utility = targets.solve_targets(SEVEN, 40), risk.solve_risk(SEVEN, [0.05, -0.1])
    one_at_a_time(monkeypatch, table_solver)
    assert np.array_equal(targets.solve_targets(SEVEN, 40).data, table.data)
    assert np.array_equal(risk.solve_risk(SEVEN, [0.05, -0.1]), utility)


def test_saved_roll_values_sliced_one_group_at_a_time_are_bit_identical(monkeypatch):
    game = GAMES["three-dice"]
    whole(monkeypatch, saved)
    before = saved.solve_saved(game, progress=False, moments=True)
    one_at_a_time(monkeypatch, saved)
    after = saved.solve_saved(game, progress=False, moments=True)
    assert all(np.array_equal(a, b) for a, b in zip(before.layers, after.layers))
    assert all(np.array_equal(a, b) for a, b in zip(before.second, after.second))


# ---- a stop asked for mid-solve ends it at the next chunk ----------------------------------------

def test_a_stop_mid_solve_ends_the_values_at_the_next_chunk(monkeypatch):
    one_at_a_time(monkeypatch, solver)
    calls = stopping_at(monkeypatch, kernel, "solve_layer", 3)
    with pytest.raises(Stopped):
        solver.solve(SEVEN, progress=False)
    assert len(calls) == 3                # the chunk after the stop never started


def test_a_stop_mid_solve_ends_a_target_and_a_risk_table_at_the_next_chunk(monkeypatch):
    one_at_a_time(monkeypatch, table_solver)
    calls = stopping_at(monkeypatch, table_solver, "solve_states", 5)
    with pytest.raises(Stopped):
        targets.solve_targets(SEVEN, 40)
    assert len(calls) == 5
    calls = stopping_at(monkeypatch, table_solver, "solve_states", 4)
    with pytest.raises(Stopped):
        risk.solve_risk(SEVEN, [0.05])     # solve_table's loop, shared with the risk tables
    assert len(calls) == 4


def test_a_stop_mid_solve_ends_saved_rolls_at_the_next_chunk(monkeypatch):
    one_at_a_time(monkeypatch, saved)
    calls = stopping_at(monkeypatch, saved_kernel, "solve_saved_layer", 2)
    with pytest.raises(Stopped):
        saved.solve_saved(GAMES["three-dice"], progress=False)
    assert len(calls) == 2


@pytest.mark.parametrize("name", ["_outcome_chunk", "_push_moves"])
def test_a_stop_ends_the_whole_game_pass_between_its_chunks(monkeypatch, name):
    from yatzy_core.objectives.distribution import forward as play_forward
    solution = solver.solve(SEVEN, progress=False)
    calls = stopping_at(monkeypatch, forward, name, 1)
    with pytest.raises(Stopped):
        play_forward(solution)
    assert len(calls) == 1


def test_a_stop_ends_a_goal_s_policy_pass_between_its_chunks(monkeypatch):
    from yatzy_core.objectives.policy_play import target_play
    table = targets.solve_targets(SEVEN, 40)
    calls = stopping_at(monkeypatch, policy_forward, "_work", 1)
    with pytest.raises(Stopped):
        target_play(table, 30)
    assert len(calls) == 1


# ---- the command: one line, status 130, no file --------------------------------------------------

def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_stopped_is_one_line_130_and_writes_nothing(capsys, private_cache, seven_file, monkeypatch):
    stopping_at(monkeypatch, kernel, "solve_layer", 2)
    status, out, err = run(capsys, "solve", "--rules-file", seven_file)
    assert (status, out, err.splitlines()[-1] + "\n") == (130, "", STOPPED)
    assert [line for line in err.splitlines() if line.startswith("yatzy:")] == [STOPPED.strip()]
    assert files_under(private_cache) == []
    assert run(capsys, "solve", "--rules-file", seven_file)[0] == 0      # the stop was used up


def test_a_goal_stopped_mid_table_is_one_line_130_and_caches_nothing(capsys, private_cache, seven_file,
                                                                      monkeypatch):
    solver.solve(SEVEN, progress=False)                # kernels compiled before counting calls
    stopping_at(monkeypatch, table_solver, "solve_states", 2)
    status, out, err = run(capsys, "advise", "--rules-file", seven_file, "--dice", "12", "--rolls-left", "1",
                           "--goal", "20")
    assert (status, out) == (130, "") and err.endswith(STOPPED)
    assert targets.cached_caps(SEVEN) == [] and not any("targets" in f for f in files_under(private_cache))


def test_risk_stopped_is_130_and_caches_nothing(capsys, private_cache, seven_file, monkeypatch):
    stopping_at(monkeypatch, table_solver, "solve_states", 1)
    status, out, err = run(capsys, "distribution", "--rules-file", seven_file, "--risk", "0.05")
    assert (status, out) == (130, "") and err.endswith(STOPPED)
    assert not risk.cached_theta(SEVEN, 0.05)


def test_export_stopped_leaves_no_file(capsys, private_cache, seven_file, tmp_path, monkeypatch):
    stopping_at(monkeypatch, kernel, "solve_layer", 2)
    out_file = tmp_path / "out" / "seven.values.gz"
    out_file.parent.mkdir()
    status, out, err = run(capsys, "export", "--rules-file", seven_file, str(out_file))
    assert (status, out) == (130, "") and err.endswith(STOPPED)
    assert list(out_file.parent.iterdir()) == []          # neither OUT nor a temporary file


def test_a_checkpointed_solve_stopped_says_its_layers_are_kept(capsys, tmp_path, monkeypatch):
    rules_file = tmp_path / "saved.toml"
    rules_file.write_text(dumps(GAMES["three-dice"]))
    stopping_at(monkeypatch, saved_kernel, "solve_saved_layer", 3)
    folder = tmp_path / "layers"
    status, out, err = run(capsys, "solve", "--rules-file", str(rules_file), "--checkpoint", str(folder))
    assert (status, out) == (130, "")
    assert err.splitlines()[-1] == (f"yatzy: stopped (Ctrl-C); the finished layers are kept in {folder} "
                                    "(run again to go on)")
    status, out, _ = run(capsys, "solve", "--rules-file", str(rules_file), "--checkpoint", str(folder))
    assert status == 0 and out.startswith("expected score: ")


# ---- a real SIGINT to a real command -------------------------------------------------------------

def test_sigint_during_a_goal_s_table_is_one_line_and_130(tmp_path, seven_file):
    """`yatzy advise --goal` on a small rule file: SIGINT once the table's bar shows (each kernel
    call slowed down in the child, so that the table is still being solved), then one line, 130
    and nothing in the cache."""
    code = ("import signal, sys, time\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from yatzy_core.engine import table_solver\nreal = table_solver.solve_states\n"
            "def slow(*a):\n    real(*a)\n    sys.stderr.write('chunk\\n'); sys.stderr.flush()\n"
            "    time.sleep(0.5)\n"
            "table_solver.solve_states = slow\nfrom yatzy_core.cli.command import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "YATZY_CACHE_DIR": str(cache), "YATZY_PROGRESS": "1"}
    child = subprocess.Popen([sys.executable, "-c", code, "advise", "--rules-file", seven_file, "--dice", "12",
                              "--rolls-left", "1", "--goal", "20"], cwd=ROOT, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = []
    for line in child.stderr:          # waits for a state: the table is being solved
        seen.append(line)
        if line.endswith("chunk\n"):
            break
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out) == (130, ""), "".join(seen) + err
    assert err.splitlines()[-1] + "\n" == STOPPED
    assert not any("targets" in f for f in files_under(cache))


def test_the_beat_ties_sliced_are_bit_identical_and_stop_at_the_next_chunk(monkeypatch):
    from yatzy_core.objectives import policy_play
    table = targets.solve_targets(SEVEN, 40)
    whole(monkeypatch, policy_play)
    ties = policy_play.tie_table(table)
    one_at_a_time(monkeypatch, policy_play)
    assert np.array_equal(policy_play.tie_table(table), ties)
    calls = stopping_at(monkeypatch, policy_play, "tie_layer", 3)
    with pytest.raises(Stopped):
        policy_play.tie_table(table)
    assert len(calls) == 3
