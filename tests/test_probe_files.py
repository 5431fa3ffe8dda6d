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
import warnings
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from test_faults import FAST, TINY, cache_warnings
from yatzy_core.engine import cache
from yatzy_core.cli import command as cli
from yatzy_core.engine.cache import get_solution, save
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
def test_rule_files_the_parser_would_choke_on(tmp_path, text, words):
    path = tmp_path / "huge.toml"
    path.write_text(text)
    start = time.perf_counter()
    with pytest.raises(ValueError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: ") and words in str(err.value), str(err.value)[:200]
    assert "\n" not in str(err.value) and time.perf_counter() - start < 5


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


@pytest.mark.parametrize("name", [r"esc\u001b[31mred", r"bell\u0007", r"tab\there", r"rtl\u202eoverride"])
def test_a_rule_files_name_may_not_drive_the_terminal(name):
    """A name or description is printed in progress bars and summaries: control characters
    (escape codes, bidi overrides; written as TOML escapes) are refused when the file is read."""
    base = (ROOT / "yatzy_core/game/rulesets/yatzy.toml").read_text(encoding="utf-8")
    for key in ("name", "description"):
        text = re.sub(rf'^{key} = ".*"$', lambda _: f'{key} = "{name}"', base, count=1, flags=re.M)
        with pytest.raises(ValueError, match=f"{key}: holds a control character"):
            loads(text)


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


# ---- a second probe: checkpoint folders, dangling links, long paths, plurals ----------------------

SAVED_TINY = SMALL + "saved_rolls = true\n"


@pytest.mark.parametrize("kind, words", [("file", "is not a folder"), ("empty", "empty path; name a folder"),
                                         ("deep", "its folder"), ("device", "is not a folder")])
def test_a_checkpoint_must_be_a_folder_or_a_new_one_beside_others(tmp_path, monkeypatch, kind, words):
    """--checkpoint names a folder: a file there was a traceback (FileExistsError), an empty one
    was ignored and a mistyped deep path made every missing folder; now each is one line, before
    any solve."""
    monkeypatch.setattr("yatzy_core.engine.saved.solve_saved", lambda *a, **k: pytest.fail("solved"))
    rules = tmp_path / "saved.toml"
    rules.write_text(SAVED_TINY.replace("n_dice = 2\n", 'name = "saved-tiny"\nn_dice = 2\n', 1))
    (tmp_path / "afile").write_text("x")
    where = {"file": str(tmp_path / "afile"), "empty": "", "deep": str(tmp_path / "no" / "such" / "dir"),
             "device": "/dev/null"}[kind]
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


def test_advice_for_a_goal_says_the_goal_in_text(capsys):
    argv = ["advise", "--rules", "yatzy", "--dice", "66655", "--used", "ones,twos,threes,fours,fives",
            "--upper", "20", "--points", "100", "--top", "2"]
    status, out, _ = call(*argv, "--beat", "240")
    lines = out.splitlines()
    assert status == 0 and lines[1] == "playing to beat 240: a final total of 241 or more (100 points on the card now)"
    assert lines[2].split()[-1] == "240)" and "P(> 240)" in lines[2]
    status, out, _ = call(*argv, "--goal", "241")
    assert out.splitlines()[1] == "playing to reach a final total of at least 241 (100 points on the card now)"
    assert "P(>= 241)" in out.splitlines()[2] and out.splitlines()[3:] == lines[3:]   # the same event, the same numbers


@pytest.mark.parametrize("extra, least", [(["--upper", "63", "--points", "97"], 98),     # 63 and the bonus 35
                                          (["--upper", "0", "--yahtzee-bonus", "--points", "49"], 50)])
def test_points_below_the_bonuses_on_the_card_are_refused(extra, least):
    """--points counts the card's points, bonuses included: below its upper total plus the upper
    bonus already earned (or the Yahtzee box's 50, flagged) the card cannot be."""
    used = "sixes,fives,fours,yahtzee" if "63" in extra else "yahtzee"
    argv = ["advise", "--rules", "yahtzee", "--dice", "12345", "--used", used, *extra, "--goal", "300"]
    err = one_error_line(*call(*argv), start="yatzy: error: argument --points: ")
    assert f"is less than the {least} the card holds already" in err
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
