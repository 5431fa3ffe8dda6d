"""Fault injection (issue 13): the cache and every input under the faults a careless or hostile
user brings. Nothing may crash, no finished answer may be lost, and no name may be trusted.

Sweeps use TINY (4 boxes, 3 dice: a 2.4 KB cache file, solved in well under a second, checked
against the brute-force referee); the parallel solve and the same-name variant use the real
yahtzee-no-bonus."""
import contextlib
import io
import os
import shutil
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from yatzy_core.engine import cache
from yatzy_core.cli import command as cli
from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.engine.bruteforce import brute_force_value
from yatzy_core.engine.cache import CacheError, CacheWarning, get_solution, load, rules_fingerprint, save
from yatzy_core.game.dice import counts_of, dice_of, dice_space
from yatzy_core.players.batch import MAX_GAMES
from yatzy_core.game.rules import Rules, get_rules
from yatzy_core.game.scoring import Box, total, upper
from yatzy_core.players.simulation import simulate
from yatzy_core.engine.solver import solve

ROOT = Path(__file__).resolve().parents[1]
TINY = Rules("tiny", tuple(Box(name, upper(f), face=f, max_score=3 * f)
                          for f, name in enumerate(("ones", "twos", "threes"), 1))
             + (Box("chance", total, max_score=18),),
             upper_bonus_threshold=6, upper_bonus=10, n_dice=3)
FAST = settings(max_examples=60 if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci" else 2000,
                deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def tiny():
    solution = solve(TINY, progress=False)
    assert solution.expected_score == pytest.approx(float(brute_force_value(TINY)), abs=1e-9)
    return solution


def cache_warnings(record) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, CacheWarning)]


# ---- damaged files: every decode failure is a rebuild, never a crash or a wrong table ----------

def outcome(path: Path, rules, reference) -> str:
    """'refused' (CacheError) or 'same' (identical numbers); anything else fails the test."""
    try:
        back = load(path, rules)
    except CacheError:
        return "refused"
    assert np.array_equal(back.values, reference.values), f"wrong table from {path}"
    return "same"


def test_every_byte_flip_and_truncation_of_a_tiny_file(tiny, tmp_path):
    good = save(tiny, tmp_path / "good.npz").read_bytes()
    bad = tmp_path / "bad.npz"
    seen = {"refused": 0, "same": 0}
    for i in range(len(good)):
        bad.write_bytes(good[:i] + bytes([good[i] ^ 0xFF]) + good[i + 1:])
        seen[outcome(bad, TINY, tiny)] += 1
    for n in range(0, len(good), 3):
        bad.write_bytes(good[:n])
        assert outcome(bad, TINY, tiny) == "refused"
    assert seen["refused"] > len(good) // 2          # most bytes matter; the rest (zip dates,
    assert sum(seen.values()) == len(good)           # unused header bytes) leave the table intact


@FAST
@given(data=st.data())
def test_random_damage_is_refused_or_harmless(tiny, tmp_path_factory, data):
    good = bytearray(save(tiny, tmp_path_factory.mktemp("d") / "t.npz").read_bytes())
    for pos, value in data.draw(st.lists(st.tuples(st.integers(0, len(good) - 1),
                                                   st.integers(0, 255)), min_size=1, max_size=8)):
        good[pos] = value
    path = tmp_path_factory.mktemp("d") / "bad.npz"
    path.write_bytes(bytes(good))
    outcome(path, TINY, tiny)


def test_a_sample_of_flips_in_a_real_cache_file(solutions, tmp_path):
    real = solutions("yahtzee-no-bonus")
    good = save(real, tmp_path / "good.npz").read_bytes()
    n = len(good)
    where = sorted(set(range(0, 160, 4)) | set(range(n - 300, n, 10)) | set(range(0, n, n // 24)))
    bad = tmp_path / "bad.npz"
    for i in where:
        bad.write_bytes(good[:i] + bytes([good[i] ^ 0x5A]) + good[i + 1:])
        outcome(bad, get_rules("yahtzee-no-bonus"), real)
    for cut in (0, 10, 100, n // 2, n - 22, n - 1):
        bad.write_bytes(good[:cut])
        assert outcome(bad, get_rules("yahtzee-no-bonus"), real) == "refused"


@pytest.mark.parametrize("damage", [b"", b"not a solution", b"PK\x03\x04" + bytes(100),
                                    b"\x93NUMPY\x01\x00" + bytes(50)],
                         ids=["halved", "text", "zip header", "npy header"])
def test_get_solution_heals_a_damaged_file_with_one_warning(tiny, private_cache, damage):
    path = cache.cache_path(TINY)
    save(tiny, path)
    path.write_bytes(damage or path.read_bytes()[::2])
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        again = get_solution(TINY, progress=False)
    assert len(cache_warnings(record)) == 1 and "computed again" in cache_warnings(record)[0]
    assert np.array_equal(again.values, tiny.values)
    assert np.array_equal(load(path, TINY).values, tiny.values)          # healed on disk


def test_a_table_of_another_state_layout_is_never_read(tiny, private_cache):
    """Older code stored other states: same rules, same count, so only the layout digest tells."""
    path = cache.cache_path(TINY)
    keep = tiny.space.reachable
    shuffled = np.roll(tiny.values[keep], 1)         # the same numbers over other states
    cache.write_trusted(path, TINY, shuffled, cache.FORMAT, seconds=0.0, layout="0" * 64)
    with pytest.raises(CacheError, match="another set of states"):
        load(path, TINY)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        again = get_solution(TINY, progress=False)
    assert len(cache_warnings(record)) == 1 and "computed again" in cache_warnings(record)[0]
    assert np.array_equal(again.values, tiny.values)
    assert np.array_equal(load(path, TINY).values, tiny.values)


# ---- places that cannot be written: the answer stands, one warning line ------------------------

def _fail(errno_, text):
    def raise_(*args, **kwargs):
        raise OSError(errno_, text)
    return raise_


def _full_disk(f, **fields):
    f.write(b"PK partial")
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("fault", ["plain file as folder", "folder at the file", "read-only",
                                   "full disk", "rename fails"])
def test_an_unusable_cache_still_answers(tiny, private_cache, monkeypatch, fault):
    if fault == "plain file as folder":
        private_cache.write_text("I am a file")
    elif fault == "folder at the file":
        (cache.cache_path(TINY) / "inside").mkdir(parents=True)
    elif fault == "read-only":                       # chmod cannot stop root: refuse the create
        monkeypatch.setattr(cache.tempfile, "mkstemp", _fail(13, "Permission denied"))
    elif fault == "full disk":
        monkeypatch.setattr(cache.np, "savez_compressed", _full_disk)
    else:
        monkeypatch.setattr(cache.os, "replace", _fail(18, "Invalid cross-device link"))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        answer = get_solution(TINY, progress=False)
    assert np.array_equal(answer.values, tiny.values)
    assert len(cache_warnings(record)) == 1 and "not cached" in cache_warnings(record)[0]
    if private_cache.is_dir():                       # no temporary file is left behind
        assert not [p for p in private_cache.rglob("*") if p.name.startswith(".")]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_real_read_only_folder(tiny, private_cache):
    private_cache.mkdir()
    private_cache.chmod(0o500)
    try:
        with pytest.warns(CacheWarning, match="not cached"):
            assert get_solution(TINY, progress=False).expected_score == tiny.expected_score
    finally:
        private_cache.chmod(0o700)


def test_links_are_never_followed(tiny, private_cache, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    path = cache.cache_path(TINY)
    private_cache.mkdir()
    path.symlink_to(victim)                                   # planted at the real name
    path.with_suffix(".tmp.npz").symlink_to(victim)           # and at the old fixed temp name
    with pytest.warns(CacheWarning, match="unreadable .*symbolic links"):
        assert get_solution(TINY, progress=False).expected_score == tiny.expected_score
    assert victim.read_text() == "precious"
    assert not path.is_symlink() and load(path, TINY).expected_score == tiny.expected_score


# ---- writers at once: processes, not threads ------------------------------------------------------

def _python(code: str, folder: Path) -> subprocess.Popen:
    env = {**os.environ, "YATZY_CACHE_DIR": str(folder), "NUMBA_NUM_THREADS": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _finish(processes) -> list[str]:
    results = [p.communicate(timeout=300) for p in processes]
    for p, (out, err) in zip(processes, results):
        assert p.returncode == 0 and "Traceback" not in err, err
    return [out for out, _ in results]


def test_three_processes_solve_one_rule_set_at_once(tmp_path):
    code = ("from yatzy_core.engine.cache import get_solution\n"
            "print(f'{get_solution(\"yahtzee-no-bonus\", progress=False).expected_score:.4f}')")
    outs = _finish([_python(code, tmp_path) for _ in range(3)])
    assert outs == ["245.8708\n"] * 3
    assert [p.name for p in tmp_path.iterdir()] == [cache.cache_path(get_rules("yahtzee-no-bonus")).name]


def test_writers_and_readers_hammer_one_file(tiny, tmp_path):
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from test_faults import TINY\n"
            "from yatzy_core.engine import cache\n"
            "s = cache.solve(TINY, progress=False); path = cache.cache_path(TINY)\n"
            "for _ in range(40):\n"
            "    cache.save(s, path)\n"
            "    assert (cache.load(path, TINY).values == s.values).all()\n"
            "print('ok')") % str(Path(__file__).parent)
    assert _finish([_python(code, tmp_path) for _ in range(3)]) == ["ok\n"] * 3
    assert [p.name for p in tmp_path.iterdir()] == [cache.cache_path(TINY).name]


# ---- a name is not an identity ----------------------------------------------------------------------

def test_a_variant_keeping_a_builtin_name_gets_its_own_table(solutions, private_cache, monkeypatch):
    builtin = solutions("yahtzee-no-bonus")
    path = save(builtin, cache.cache_path(builtin.rules))
    before = path.read_bytes()
    variant = builtin.rules.with_(upper_bonus=50)
    assert variant.name == builtin.rules.name
    assert round(get_solution(variant, progress=False).expected_score, 4) == 256.8554
    monkeypatch.setattr(cache, "solve", _fail(0, "the built-in must come from its file"))
    assert round(get_solution("yahtzee-no-bonus").expected_score, 4) == 245.8708
    assert round(get_solution(variant).expected_score, 4) == 256.8554
    assert path.read_bytes() == before and len(list(private_cache.iterdir())) == 2
    planted = cache.cache_path(variant)
    planted.write_bytes(before)                        # the built-in's file under the variant's name
    with pytest.raises(CacheError, match="other rules under the name 'yahtzee-no-bonus'"):
        load(planted, variant)


@pytest.mark.parametrize("name", ["../../../escape", "/etc/passwd", "a\\b:c*d", "x" * 1000,
                                  "..", "", "ÅÄÖ yatzy"])
def test_names_cannot_leave_the_cache_folder(tiny, private_cache, name):
    with pytest.raises(ValueError, match="name holds a control character"):
        TINY.with_(name="a\\b:c\x00d")          # a NUL (any control character) is refused outright
    rules = TINY.with_(name=name)
    path = cache.cache_path(rules)
    assert path.parent == private_cache and len(path.name) < 100
    assert set(path.stem) <= set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
    assert get_solution(rules, progress=False).expected_score == tiny.expected_score
    assert load(path, rules).expected_score == tiny.expected_score


def test_the_fingerprint_follows_content_not_names():
    yatzy, thesis = get_rules("yatzy"), get_rules("yatzy-thesis")
    assert rules_fingerprint(yatzy) != rules_fingerprint(thesis.with_(name="yatzy"))  # scorer only
    assert rules_fingerprint(yatzy) == rules_fingerprint(yatzy.with_(description="renamed"))

    @dataclass(frozen=True)
    class Ordered(Rules):               # a field added later joins the fingerprint by itself
        forced_order: bool = False
    plain = Ordered(**{f: getattr(yatzy, f) for f in yatzy.__dataclass_fields__})
    assert rules_fingerprint(plain) != rules_fingerprint(plain.with_(forced_order=True))


# ---- the command line: exit 2, one line naming the flag, no traceback ---------------------------------

def call(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def assert_names(flag: str, status: int, out: str, err: str) -> None:
    assert status == 2 and out == "" and "Traceback" not in err, (status, err)
    assert err.count("\n") == 1 and err.startswith(f"yatzy: error: argument {flag}: "), err
    assert len(err) <= 301


ADVISE = ["advise", "--rules", "yahtzee-no-bonus", "--dice", "11112"]
SIMULATE = ["simulate", "--rules", "yahtzee-no-bonus", "--strategy", "random", "--games", "1",
            "--quiet"]


@pytest.mark.parametrize("argv, flag", [
    (SIMULATE + ["--games", "1000000000000000"], "--games"),
    (SIMULATE + ["--games", "10^15"], "--games"),
    (SIMULATE + ["--games", str(MAX_GAMES + 1)], "--games"),
    (SIMULATE + ["--seed", "-1"], "--seed"),
    (SIMULATE + ["--games=--"], "--games"),     # argparse alone would pass an empty list
    (ADVISE + ["--dice=--"], "--dice"),
    (SIMULATE + ["--strategy", "perfect"], "--strategy"),
    (SIMULATE + ["--rules", "../x"], "--rules"),
    (["study", "--slow-games", "0"], "--slow-games"),
    (["study", "--strategies", "greedy,nope"], "--strategies"),
    (ADVISE + ["--dice", "1" * 100_000], "--dice"),
    (ADVISE + ["--used", "ones," * 10_000], "--used"),
    (ADVISE + ["--upper", "9" * 5000], "--upper"),
    (ADVISE + ["--dice", "1,1,1,1,\n7"], "--dice"),
    (["info", "--rules", "y" * 100_000], "--rules"),
])
def test_malformed_flags(argv, flag):
    assert_names(flag, *call(*argv))


@FAST
@given(flag=st.sampled_from(["--dice", "--used", "--upper", "--rolls-left", "--top", "--rules"]),
       value=st.one_of(st.text(max_size=20), st.integers(-10**6, 10**6).map(str),
                       st.sampled_from(["", "1" * 300, "1,1,1,1,7", "0x10", "1e3", "ones,ones"])))
def test_fuzzed_advise_flags(solutions, flag, value):
    solution = solutions("yahtzee-no-bonus")
    with mock.patch.object(cli, "get_solution", lambda rules, **_: solution):
        status, out, err = call(*ADVISE, f"{flag}={value}")
    if status == 0:
        assert out and err == ""
    else:
        assert_names(flag, status, out, err)


@FAST
@given(flag=st.sampled_from(["--games", "--seed", "--strategy"]),
       value=st.one_of(st.text(alphabet="xyz-_., \t", max_size=12), st.integers(max_value=-1).map(str)))
def test_fuzzed_simulate_flags(flag, value):
    with mock.patch("yatzy_core.players.simulation.simulate", side_effect=AssertionError("ran")):
        assert_names(flag, *call(*SIMULATE, f"{flag}={value}"))


def test_a_bad_csv_is_refused_before_the_games(tmp_path, monkeypatch):
    monkeypatch.setattr("yatzy_core.players.simulation.simulate", _fail(0, "the games must not start"))
    taken = tmp_path / "taken.csv"
    taken.write_text("keep me")
    for target in (tmp_path / "no" / "such" / "x.csv", tmp_path, taken):
        assert_names("--csv", *call(*SIMULATE, "--csv", str(target)))
    assert taken.read_text() == "keep me" and sorted(tmp_path.iterdir()) == [taken]


def test_csv_written_once_and_overwritten_only_with_force(tmp_path):
    target = tmp_path / "games.csv"
    status, out, _ = call(*SIMULATE, "--games", "5", "--csv", str(target))
    assert status == 0 and out.endswith(f"wrote {target}\n")
    assert len(target.read_text().splitlines()) == 1 + 5
    assert call(*SIMULATE, "--games", "7", "--csv", str(target))[0] == 2
    assert call(*SIMULATE, "--games", "7", "--csv", str(target), "--force")[0] == 0
    assert len(target.read_text().splitlines()) == 1 + 7 and list(tmp_path.iterdir()) == [target]


def test_an_unwritable_cache_is_one_warning_line_in_the_cli(solutions, private_cache, monkeypatch):
    real = solutions("yahtzee-no-bonus")           # (run alone, this fills the private cache)
    shutil.rmtree(private_cache, ignore_errors=True)
    private_cache.write_text("a file, not a folder")
    monkeypatch.setattr(cache, "solve", lambda rules, progress=True, moments=False: real)
    status, out, err = call("solve", "--rules", "yahtzee-no-bonus")
    assert status == 0 and out.startswith("expected score: 245.8708\n")
    assert err.count("\n") == 1 and err.startswith("yatzy: warning: yatzy-core cache: cannot write")


def test_a_closed_pipe_is_quiet():
    reader = _python("from yatzy_core.cli.command import main; raise SystemExit(main(['info']))", ROOT)
    reader.stdout.close()                               # `yatzy info | head -0`
    err = reader.stderr.read()
    assert reader.wait(timeout=60) == 1 and err == ""


# ---- the Python API: a ValueError or TypeError that names the argument ------------------------------

@pytest.mark.parametrize("call_, error, named", [
    (lambda s, p: counts_of([0, 1]), ValueError, "dice"),
    (lambda s, p: counts_of(None), TypeError, "dice"),
    (lambda s, p: dice_of([-1]), ValueError, "counts"),
    (lambda s, p: dice_space("a"), TypeError, "n_dice"),
    (lambda s, p: p.keep("7"), ValueError, "kept"),
    (lambda s, p: advise(None), TypeError, "position"),
    (lambda s, p: advise(p, 5), TypeError, "solution"),
    (lambda s, p: Position.make("yahtzee-no-bonus", dice=None), TypeError, "dice"),
    (lambda s, p: s.value(1, 50), ValueError, "upper=50"),
    (lambda s, p: s.value(0, 0, 1), ValueError, "flag=1"),
    (lambda s, p: s.value(1 << 13), ValueError, "mask=8192"),
    (lambda s, p: s.value(0.5), TypeError, "mask"),
    (lambda s, p: simulate("yahtzee-no-bonus", "random", games=10**15), ValueError, "games"),
    (lambda s, p: simulate("yahtzee-no-bonus", "random", games="10"), TypeError, "games"),
    (lambda s, p: simulate("yahtzee-no-bonus", "random", games=1, seed=-1), ValueError, "seed"),
    (lambda s, p: simulate("yahtzee-no-bonus", "random", games=1, seed="7"), ValueError,
     "seed must be a whole number >= 0, got '7'"),
    (lambda s, p: simulate("yahtzee-no-bonus", "random", games=1, seed=2.5), ValueError,
     "seed must be a whole number >= 0, got 2.5"),
])
def test_api_edges_name_the_argument(solutions, call_, error, named):
    solution = solutions("yahtzee-no-bonus")
    with pytest.raises(error, match=named.replace("(", r"\(")):
        call_(solution, Position.make("yahtzee-no-bonus", dice="11112"))


@FAST
@given(dice=st.lists(st.integers(-3, 9), max_size=7))
def test_counts_of_counts_or_refuses(dice):
    try:
        counts = counts_of(dice)
    except ValueError:
        assert any(not 1 <= d <= 6 for d in dice)
    else:
        assert sum(counts) == len(dice) and dice_of(counts) == tuple(sorted(dice))


@FAST
@given(mask=st.integers(-2, 1 << 13), upper=st.integers(-2, 120), flag=st.integers(-1, 2))
def test_value_answers_only_for_states_a_game_reaches(solutions, mask, upper, flag):
    solution = solutions("yahtzee-no-bonus")
    space = solution.space
    try:
        value = solution.value(mask, upper, flag)
    except ValueError:
        return
    assert space.reachable[space.index(mask, min(upper, 63), flag)] and value >= 0
    assert value == solution.values[space.index(mask, min(upper, 63), flag)]


def test_numba_cache_is_saved_and_loaded_under_the_folder_lock(tmp_path, monkeypatch):
    """Two processes compiling one kernel at once (two notebooks, two test workers) could leave
    one's index beside the other's machine code in numba's cache: a save holds the cache folder's
    lock exclusively (no other process may even load), a load holds it shared (no save between
    its index and its data)."""
    fcntl = pytest.importorskip("fcntl")
    from numba.core.caching import IndexDataCacheFile
    from yatzy_core.engine.compiled.cache_lock import LOCK_FILE, lock_numba_cache
    assert lock_numba_cache() and lock_numba_cache()            # once, however often asked
    held = []

    def others_may(how):
        fd = os.open(tmp_path / LOCK_FILE, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, how | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False
        finally:
            os.close(fd)

    def spy(method):
        def watched(self, *args):
            held.append((method.__name__, others_may(fcntl.LOCK_SH), others_may(fcntl.LOCK_EX)))
            return method(self, *args)
        return watched

    monkeypatch.setattr(IndexDataCacheFile, "_save_data", spy(IndexDataCacheFile._save_data))
    monkeypatch.setattr(IndexDataCacheFile, "_load_data", spy(IndexDataCacheFile._load_data))
    index = IndexDataCacheFile(str(tmp_path), "kernel", source_stamp=("kernel.py", 1.0))
    index.save(("float64",), ("machine code",))
    assert index.load(("float64",)) == ("machine code",)
    assert held == [("_save_data", False, False), ("_load_data", True, False)]
    assert others_may(fcntl.LOCK_EX)                             # released after each


def test_numba_cache_works_where_the_lock_cannot_be_had(tmp_path, monkeypatch):
    """A lock file that we may not write (another user's, in a shared cache) is locked through a
    read-only descriptor; a file system that refuses locks (some NFS or FUSE mounts) leaves
    numba's own behaviour: either way the cache is written and read back."""
    fcntl = pytest.importorskip("fcntl")
    from numba.core.caching import IndexDataCacheFile
    from yatzy_core.engine.compiled import cache_lock
    assert cache_lock.lock_numba_cache()
    real_open, real_flock, locks = os.open, fcntl.flock, []

    def no_write(path, flags, *mode):
        if str(path).endswith(cache_lock.LOCK_FILE) and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *mode)

    def flock(fd, how):
        real_flock(fd, how)
        locks.append((how & ~fcntl.LOCK_NB, fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY))
    (tmp_path / cache_lock.LOCK_FILE).touch()
    monkeypatch.setattr(cache_lock.os, "open", no_write)
    monkeypatch.setattr(cache_lock.fcntl, "flock", flock)
    index = IndexDataCacheFile(str(tmp_path), "kernel", source_stamp=("kernel.py", 1.0))
    index.save(("float64",), ("machine code",))
    assert index.load(("float64",)) == ("machine code",)
    assert locks == [(fcntl.LOCK_EX, True), (fcntl.LOCK_SH, True)]          # locked, read-only

    def refused(fd, how):
        raise OSError(37, "No locks available")
    monkeypatch.setattr(cache_lock.fcntl, "flock", refused)
    index.save(("int64",), ("other code",))
    assert index.load(("float64",)) == ("machine code",) and index.load(("int64",)) == ("other code",)
