"""Hostile files, cache entries and rule files (the probe's report): every input either works
or is refused in one line naming the file and field; nothing hangs, nothing outside the
command's own files is replaced, and no stale temporary file stays behind."""
import contextlib
import io
import json
import os
import re
import stat
import subprocess
import sys
import threading
import time
import tracemalloc
import warnings
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from test_faults import FAST, TINY, cache_warnings
from yatzy_core.engine import cache
from yatzy_core.cli import command as cli
from yatzy_core.engine.cache import get_solution, save
from yatzy_core.game import rulefile
from yatzy_core.game.rulefile import load, loads
from yatzy_core.game.rules import Rules
from yatzy_core.game.scoring import Box, total, upper
from yatzy_core.engine.solver import solve

ROOT = Path(__file__).resolve().parents[1]
SIMULATE = ["simulate", "--rules", "yahtzee-no-bonus", "--strategy", "random", "--games", "2",
            "--quiet"]
SMALL = ('n_dice = 2\nupper_bonus = 0\n[[boxes]]\nname = "sixes"\nscorer = "upper"\nface = 6\n'
         '[[boxes]]\nname = "doubles"\nscorer = "all_same"\npoints = 10\n')


def call(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def one_error_line(status, out, err, start="yatzy: error: "):
    assert status == 2 and out == "" and "Traceback" not in err, (status, out, err)
    assert err.count("\n") == 1 and err.startswith(start), err
    return err


# ---- 5: empty paths --------------------------------------------------------------------------

@pytest.mark.parametrize("argv, flag", [(["info", "--rules-file", ""], "--rules-file"),
                                        (["info", "--rules-file", "  "], "--rules-file"),
                                        (SIMULATE + ["--csv", ""], "--csv")])
def test_an_empty_path_is_refused(argv, flag, monkeypatch):
    monkeypatch.setattr("yatzy_core.players.simulation.simulate", lambda *a, **k: pytest.fail("ran"))
    one_error_line(*call(*argv), start=f"yatzy: error: argument {flag}: empty path")


# ---- 6: --csv --force replaces only regular files, and new files follow the umask --------------

@pytest.mark.parametrize("kind", ["fifo", "folder", "link to a fifo"])
def test_force_never_replaces_what_is_not_a_regular_file(tmp_path, monkeypatch, kind):
    monkeypatch.setattr("yatzy_core.players.simulation.simulate", lambda *a, **k: pytest.fail("ran"))
    target = tmp_path / "target"
    if kind == "folder":
        target.mkdir()
    else:
        os.mkfifo(tmp_path / "fifo")
        if kind == "fifo":
            os.rename(tmp_path / "fifo", target)
        else:
            target.symlink_to(tmp_path / "fifo")
    err = one_error_line(*call(*SIMULATE, "--csv", str(target), "--force"),
                         start="yatzy: error: argument --csv: ")
    assert "folder" in err or "not a regular file" in err
    assert target.is_dir() if kind == "folder" else stat.S_ISFIFO(os.stat(target).st_mode)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_a_new_csv_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        status, _, _ = call(*SIMULATE, "--csv", str(tmp_path / "a.csv"))
        os.umask(0o027)
        status2, _, _ = call(*SIMULATE, "--csv", str(tmp_path / "b.csv"))
    finally:
        os.umask(old)
    assert status == status2 == 0
    assert stat.S_IMODE((tmp_path / "a.csv").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.csv").stat().st_mode) == 0o640


def test_a_cache_file_follows_the_umask(tmp_path):
    """A private umask keeps solved tables private too (they were always 0644)."""
    solution, old = solve(TINY, progress=False), os.umask(0o077)
    try:
        private = save(solution, tmp_path / "private.npz")
        os.umask(0o022)
        shared = save(solution, tmp_path / "shared.npz")
    finally:
        os.umask(old)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert stat.S_IMODE(shared.stat().st_mode) == 0o644


# ---- 7: a FIFO at a cache file's path ------------------------------------------------------------

def test_a_fifo_in_the_cache_is_one_warning_not_a_hang(tmp_path):
    """In a subprocess with a timeout: a regression fails instead of hanging the suite."""
    code = ("import os, warnings, sys; sys.path.insert(0, %r)\n"
            "from test_faults import TINY\n"
            "from yatzy_core.engine import cache\n"
            "path = cache.cache_path(TINY); path.parent.mkdir(parents=True); os.mkfifo(path)\n"
            "with warnings.catch_warnings(record=True) as record:\n"
            "    warnings.simplefilter('always')\n"
            "    s = cache.get_solution(TINY, progress=False)\n"
            "print(len(record), 'not a regular file' in str(record[0].message))\n"
            "print(path.is_file(), cache.load(path, TINY).expected_score == s.expected_score)"
            ) % str(Path(__file__).parent)
    env = {**os.environ, "YATZY_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_NUM_THREADS": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1 True\nTrue True\n"


# ---- 8: huge and deeply nested rule files ----------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("a" + ".a" * 100_000 + " = 1\n", "too large for a rule file"),
    ("a" + ".a" * 1_000 + " = 1\n", "line 1 is longer than 1,000 characters"),
    ("x = " + "[\n" * 20_000, "nested too deep"),
    ("x = " + "[" * 990, "nested too deep"),
    ("x = " + "{a = " * 5_000, "line 1 is longer"),
    (SMALL + "# " + "padding " * 9_000 + "\n", "too large"),
])
def test_rule_files_the_parser_would_choke_on(tmp_path, monkeypatch, text, words):
    """A file too large or with too long a line never reaches the parser (its memory grows with
    the square of a dotted key's parts); one nested too deep stops at the parser's recursion limit.
    Either way the refusal takes little memory (measured: 0.07 and 0.4 MB)."""
    path = tmp_path / "huge.toml"
    path.write_text(text)
    if "nested" not in words:
        monkeypatch.setattr(rulefile.tomllib, "loads", lambda *a, **k: pytest.fail("parsed"))
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as err:
            load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(err.value).startswith(f"{path}: ") and words in str(err.value), str(err.value)[:200]
    assert "\n" not in str(err.value) and peak < 8 * 2**20


def test_a_device_is_not_opened_as_a_rule_file(tmp_path):
    with pytest.raises(ValueError, match="/dev/zero: not a regular file"):
        load("/dev/zero")


def test_a_fifo_as_rule_file_is_refused_at_once(tmp_path):
    """A FIFO with no writer would block open() for ever: refused before it is opened."""
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    run = subprocess.run([sys.executable, "-m", "yatzy_core", "info", "--rules-file", str(fifo)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [f"yatzy: error: {fifo}: not a regular file (a folder, device, "
                                               "FIFO or socket); name a rule file"]


@pytest.mark.parametrize("name", [r"esc\u001b[31mred", r"bell\u0007", r"rtl\u202eoverride", r"two\nlines"])
def test_a_rule_files_name_may_not_drive_the_terminal(name):
    """A name or description is printed in progress bars and summaries: control characters
    (escape codes, bidi overrides; written as TOML escapes) are refused when the file is read; a
    description may break lines and hold tabs, and invisible printing characters (a no-break
    space, a joiner) are text."""
    base = (ROOT / "yatzy_core/game/rulesets/yatzy.toml").read_text(encoding="utf-8")
    keys = ("name",) if "\\n" in name else ("name", "description")
    for key in keys:
        text = re.sub(rf'^{key} = ".*"$', lambda _: f'{key} = "{name}"', base, count=1, flags=re.M)
        with pytest.raises(ValueError, match=f"{key}: holds a control character"):
            loads(text)
    fine = re.sub(r'^description = ".*"$', lambda _: r'description = "Yatzy\u00a0: deux\tcolonnes\nsur deux lignes"',
                  base, count=1, flags=re.M)
    assert loads(fine).description == "Yatzy\u00a0: deux\tcolonnes\nsur deux lignes"
    with pytest.raises(ValueError, match="name holds a control character"):   # Rules itself: no log can hold one
        loads(base).with_(name="evil\x1b[2J")


# ---- 10: temporary files of killed writers ---------------------------------------------------

def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_temporaries_are_removed_on_the_next_write(tmp_path):
    solution = solve(TINY, progress=False)
    path = tmp_path / cache.cache_path(TINY).name
    old, quiet, dead = time.time() - 2 * cache.STALE_SECONDS, time.time() - 2 * cache.QUIET_SECONDS, _dead_pid()
    names = {"dead": f".{path.name}.{dead}.abc_12.tmp", "old": f".{path.name}.zz9_ab.tmp",
             "live": f".{path.name}.{os.getppid()}.def_34.tmp", "fresh": f".{path.name}.qq1_xy.tmp",
             "elsewhere": f".{path.name}.{dead}.ghi_56.tmp",   # no pid here, but written just now
             "foreign": ".notes.tmp", "other": "mine.npz.1.tmp"}
    for key, name in names.items():
        (tmp_path / name).write_bytes(b"partial")
        if key in ("old", "foreign", "other"):
            os.utime(tmp_path / name, (old, old))
        if key == "dead":
            os.utime(tmp_path / name, (quiet, quiet))
    save(solution, path)
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {path.name, names["live"], names["fresh"], names["elsewhere"], names["foreign"], names["other"]}


# ---- 13: unclear errors from rule files -------------------------------------------------------

GOOD = ('n_dice = 3\nupper_bonus = 5\nupper_bonus_threshold = 3\n'
        '[[boxes]]\nname = "ones"\nscorer = "upper"\nface = 1\n'
        '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


@pytest.mark.parametrize("change, field, words", [
    (('n_dice = 3', 'n_dice = 6\nfaces = 2'), None, None),      # (a control: loads)
    (('scorer = "chance"', 'scorer = "pairs"\ncount = 3'), "boxes[1] (chance).scorer",
     "can never score"),
    (('scorer = "chance"', 'scorer = "straight"\nfaces = [[1], [2]]\npoints = 5'),
     "boxes[1] (chance).faces", "different faces"),
    (('scorer = "chance"', 'scorer = "straight"\nfaces = [true, 2, 3]\npoints = 5'),
     "boxes[1] (chance).faces", "different faces"),
    (('scorer = "chance"', 'scorer = "chance"\nmax_score = true'), "boxes[1] (chance).max_score",
     "whole number"),
    (('n_dice = 3', 'n_dice = 3\nforced_order = "yes"'), "forced_order", "true or false"),
])
def test_rule_file_faults_name_the_field(tmp_path, change, field, words):
    path = tmp_path / "house.toml"
    path.write_text(GOOD.replace(*change))
    if field is None:
        assert load(path).faces == 2
        return
    with pytest.raises(ValueError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: {field}: ") and words in str(err.value), str(err.value)


def test_a_six_dice_two_face_pairs_box_says_it_never_scores():
    with pytest.raises(ValueError, match=r"'pairs' can never score with 6 dice of 2 faces"):
        loads(GOOD.replace("n_dice = 3", "n_dice = 6\nfaces = 2").replace(
            'scorer = "chance"', 'scorer = "pairs"\ncount = 3'))


def test_latin1_is_one_line_naming_the_file_and_a_bom_is_accepted(tmp_path):
    path = tmp_path / "house.toml"
    path.write_bytes(GOOD.replace("n_dice = 3", 'description = "Café"\nn_dice = 3').encode("latin-1"))
    with pytest.raises(ValueError, match=rf"^{path}: not UTF-8 text \(byte 0xe9 at offset \d+\)"):
        load(path)
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert load(path).box_names == ("ones", "chance")


def test_info_refuses_a_name_with_control_characters(tmp_path):
    """Escaped where it was printed, such a name still reached the terminal raw in progress bars
    and the grade summary: it is refused when the file is read (`test_a_rule_files_name_...`)."""
    path = tmp_path / "house.toml"
    path.write_text('name = "evil\\u001b[2J\\u202e"\ndescription = "a\\u0007b"\n' + SMALL)
    err = one_error_line(*call("info", "--rules-file", str(path)), start="yatzy: error: ")
    assert f"{path}: name: holds a control character" in err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err


def test_rules_refuses_two_upper_boxes_of_one_face():
    boxes = (Box("ones", upper(1), face=1, max_score=3), Box("more_ones", upper(1), face=1,
                                                               max_score=3), Box("chance", total))
    with pytest.raises(ValueError, match="upper boxes ones, more_ones both count face 1"):
        Rules("twice", boxes, upper_bonus=0, n_dice=3)
    with pytest.raises(ValueError, match="both count face 1"):
        TINY.with_(boxes=TINY.boxes[:1] + boxes[1:2])


# ---- hypothesis: hostile rule files and cache paths --------------------------------------------

TOKENS = ["n_dice = ", "faces = ", "name = ", "max_score = ", "forced_order = ", "[[boxes]]",
          "scorer = ", "face = ", "count = ", "points = ", "true", "false", '"upper"', '"pairs"',
          '"straight"', "[1, 2]", "[[1]]", "[true]", "6", "2", "-1", "1e9", '"x"', "\n", "=",
          "a.b.c", "[", "]", "{", "}", "\ufeff", "\x00", "\x1b"]


@FAST
@given(pieces=st.lists(st.sampled_from(TOKENS), max_size=40), raw=st.binary(max_size=40))
def test_fuzzed_rule_files_work_or_name_the_file(tmp_path_factory, pieces, raw):
    path = tmp_path_factory.mktemp("r") / "fuzz.toml"
    path.write_bytes(GOOD.encode() + "".join(pieces).encode() + raw)
    try:
        rules = load(path)
    except ValueError as err:
        assert str(err).startswith(f"{path}: ") and "\n" not in str(err), str(err)
    else:
        assert isinstance(rules, Rules) and rules.n_boxes >= 1


def _within(seconds, path):
    """get_solution(TINY) in a daemon thread: a hang fails the test (and is then released by
    opening a FIFO at `path` for writing) instead of hanging the suite."""
    result = []

    def run():
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            result.append((record, get_solution(TINY, progress=False)))
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        with contextlib.suppress(OSError):
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"get_solution hung on {path}")
    return result[0]


@FAST
@given(kind=st.sampled_from(["fifo", "folder", "empty", "link", "garbage", "stale temp"]))
def test_fuzzed_cache_entries_answer_with_at_most_one_warning(tmp_path_factory, kind):
    folder, before = tmp_path_factory.mktemp("c"), os.environ.get("YATZY_CACHE_DIR")
    os.environ["YATZY_CACHE_DIR"] = str(folder)
    try:
        path = cache.cache_path(TINY)
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            (path / "x").mkdir(parents=True)
        elif kind == "link":
            path.symlink_to(folder / "nowhere")
        elif kind == "stale temp":
            stale = folder / f".{path.name}.{_dead_pid()}.abc.tmp"
            stale.write_bytes(b"x")
            quiet = time.time() - 2 * cache.QUIET_SECONDS
            os.utime(stale, (quiet, quiet))
        else:
            path.write_bytes(b"" if kind == "empty" else b"PK\x03\x04garbage")
        record, answer = _within(60, path)
        assert len(cache_warnings(record)) == (kind != "stale temp")
        assert answer.expected_score == pytest.approx(solve(TINY, progress=False).expected_score)
        assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    finally:
        os.environ.pop("YATZY_CACHE_DIR")
        if before is not None:
            os.environ["YATZY_CACHE_DIR"] = before


# ---- 11: a tiny rule file asking for gigabytes -------------------------------------------------

MAXI_126 = (ROOT / "yatzy_core" / "game" / "rulesets" / "maxi-yatzy-no-saved-rolls.toml").read_text().replace(
    "upper_bonus_threshold = 84", "upper_bonus_threshold = 126").replace(
    'forced_order = false', 'forced_order = false\nyahtzee_box = "maxi_yatzy"\nyahtzee_bonus = 50')


def test_a_solve_that_cannot_fit_is_refused_before_it_starts(tmp_path, monkeypatch):
    from yatzy_core.engine import solver
    from yatzy_core.game.states import StateSpace, memory_estimate
    path = tmp_path / "maxi126.toml"
    path.write_text(MAXI_126)
    rules = load(path)
    assert StateSpace(rules).size == 2**20 * 127 * 2 and memory_estimate(StateSpace(rules)) > 5e9
    monkeypatch.setattr(solver, "available_memory", lambda: 4 * 10**9)
    monkeypatch.setattr(solver, "_backward", lambda *a: pytest.fail("the solve started"))
    with pytest.raises(ValueError, match=r"266,338,304 states need about 5\.9 GB of memory, "
                                         r"but only 4\.0 GB is available"):
        solve(rules, progress=False)
    one_error_line(*call("solve", "--rules-file", str(path), "--no-cache"),
                   start="yatzy: error: rules 'maxi-yatzy-no-saved-rolls': 266,338,304 states need about")


def test_a_large_solve_says_so_first(tmp_path, monkeypatch):
    from yatzy_core.engine import solver
    monkeypatch.setattr(solver, "LOUD_BYTES", 10)      # TINY needs about 2.5 kB, SMALL 88 bytes
    with pytest.warns(solver.SolveWarning, match=r"solving rules 'tiny': 112 states need about"):
        solve(TINY, progress=False)
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    status, out, err = call("solve", "--rules-file", str(path), "--no-cache")
    assert status == 0 and out.startswith("expected score: ")
    warned = [line for line in err.splitlines() if line.startswith("yatzy: warning: ")]
    assert len(warned) == 1 and warned[0].startswith("yatzy: warning: solving rules 'small': 4 states")


# ---- 15: install and first run print no warning of ours --------------------------------------

def test_the_warmup_runs_without_a_runpy_warning():
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-m", "yatzy_core.warmup"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("solver kernel compiled")

