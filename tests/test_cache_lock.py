"""numba's cache lock in a folder others may write: a link there is not followed, a FIFO not
waited on, a lock another process keeps (a stopped one) is waited for a bounded time and then
said once, and a save that fails (a full disk) is said once while the kernel still answers."""
import errno
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from test_checkpoint_faults import HANG, finishes, open_both_ends
from test_saved_rolls import TEXTS

fcntl = pytest.importorskip("fcntl")
from numba.core.caching import IndexDataCacheFile   # noqa: E402

from yatzy_core.engine.compiled import cache_lock    # noqa: E402
from yatzy_core.engine.saved import solve_saved      # noqa: E402
from yatzy_core.game.rulefile import load            # noqa: E402

KEY, CODE = ("float64",), ("machine code",)


@pytest.fixture(autouse=True)
def locked():
    assert cache_lock.lock_numba_cache()


def save_and_load(folder, key=KEY, data=CODE, stamp=1.0):
    index = IndexDataCacheFile(str(folder), "kernel", source_stamp=("kernel.py", stamp))
    index.save(key, data)
    return index.load(key)


@pytest.mark.parametrize("dangling", [True, False])
def test_a_link_at_the_lock_is_not_followed(tmp_path, dangling):
    folder, victim = tmp_path / "cache", tmp_path / "victim"
    folder.mkdir()
    if not dangling:
        victim.write_text("precious")
    (folder / cache_lock.LOCK_FILE).symlink_to(victim)
    with pytest.warns(UserWarning) as said:
        assert save_and_load(folder) == CODE
    assert victim.read_text() == "precious" if not dangling else not victim.exists()
    (message,) = [str(w.message) for w in said]
    assert str(folder / cache_lock.LOCK_FILE) in message and "not a plain file" in message


def test_another_users_fifo_at_the_lock_is_not_waited_on(tmp_path, monkeypatch):
    """A lock file we may not write is opened read-only: a FIFO there blocked that open forever."""
    lock = tmp_path / cache_lock.LOCK_FILE
    os.mkfifo(lock)
    real_open = os.open

    def theirs(path, flags, *mode):
        if str(path) == str(lock) and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *mode)
    monkeypatch.setattr(cache_lock.os, "open", theirs)
    answer, said = finishes(lambda: save_and_load(tmp_path), lambda: open_both_ends(lock))
    assert answer == CODE
    assert len(said) == 1 and str(lock) in said[0] and "not a plain file" in said[0], said


HOLDER = """import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def held():
    """hold(folder): another process (a stopped save, say) keeps `folder`'s lock until the test ends."""
    holders = []

    def hold(folder):
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder / cache_lock.LOCK_FILE)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        holders.append(holder)
        assert holder.stdout.readline() == "held\n"
        return holder
    yield hold
    for holder in holders:
        holder.kill()
        holder.wait()


def test_a_lock_held_by_another_process_is_waited_for_a_bounded_time(tmp_path, monkeypatch, held):
    monkeypatch.setattr(cache_lock, "LOCK_WAIT_SECONDS", 0.2, raising=False)
    holder = held(tmp_path)

    def twice():
        first = save_and_load(tmp_path)
        return first, save_and_load(tmp_path, ("int64",), ("other code",))
    answers, said = finishes(twice, holder.kill)
    assert answers == (CODE, ("other code",))
    assert len(said) == 1, said                       # said once; not waited for again
    assert str(tmp_path / cache_lock.LOCK_FILE) in said[0] and "\n" not in said[0]
    assert "held by another process for over 0.2 s" in said[0]


def test_cli_answers_with_one_line_while_numba_s_lock_is_held(tmp_path, held):
    """The whole command: every kernel it loads from numba's cache folder finds the lock held.
    The command gets a copy of this process's numba cache of its own: holding the shared folder's
    lock would make the other test workers wait, then save unlocked (the race the lock prevents)."""
    from numba.core.caching import _CacheLocator
    from yatzy_core.engine.compiled import kernel
    rules = tmp_path / "rules.toml"
    rules.write_text('name = "tiny"\nsaved_rolls = true\n' + TEXTS["two-boxes"])
    expected = solve_saved(load(rules), progress=False, keep=0).expected_score
    ours = Path(kernel._solve_groups._cache._cache_path)      # where this process's kernels are cached
    cache = tmp_path / "numba" / _CacheLocator.get_suitable_cache_subpath(kernel.__file__)
    shutil.copytree(ours, cache, ignore=shutil.ignore_patterns(cache_lock.LOCK_FILE)) if ours.is_dir() \
        else cache.mkdir(parents=True)
    lock = str(cache / cache_lock.LOCK_FILE)
    holder = held(cache)
    script = ("import sys; import yatzy_core.engine.compiled.cache_lock as c; c.LOCK_WAIT_SECONDS = 0.5\n"
              "from yatzy_core.cli import main; sys.exit(main(['solve', '--rules-file', sys.argv[1]]))")
    env = {**os.environ, "YATZY_CACHE_DIR": str(tmp_path / "c"), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    try:
        done = subprocess.run([sys.executable, "-c", script, str(rules)], capture_output=True, text=True,
                              timeout=HANG, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still waiting after {HANG} s")
    finally:
        holder.kill()
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == f"expected score: {expected:.4f}"
    (line,) = [line for line in re.split(r"[\r\n]", done.stderr) if "yatzy:" in line]   # tqdm's bar too
    assert line.startswith("yatzy: warning: numba's cache: ") and lock in line
    assert "held by another process for over 0.5 s" in line


def full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_is_said_once_and_never_leaves_the_index_naming_old_code(tmp_path, monkeypatch):
    """numba writes the index before the data: a data file that could not be written must not
    leave the index naming the older data file of the same number (another function's code)."""
    assert save_and_load(tmp_path, data=("old version's code",), stamp=1.0) == ("old version's code",)
    monkeypatch.setattr(IndexDataCacheFile, "_save_data", full_disk)
    with pytest.warns(UserWarning, match="cannot save a kernel in .*No space left on device") as said:
        assert save_and_load(tmp_path, data=CODE, stamp=2.0) is None     # not cached, and not the old
        with warnings.catch_warnings():               # as numba compiles: a registry of its own
            assert save_and_load(tmp_path, ("int64",), stamp=2.0) is None
    assert len(said) == 1                             # once a folder, not once a kernel


def test_a_kernel_compiled_on_a_full_disk_still_answers(tmp_path, monkeypatch):
    source = tmp_path / "full_disk_kernel.py"
    source.write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x + 1\n")
    spec = importlib.util.spec_from_file_location("full_disk_kernel", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(IndexDataCacheFile, "_save_data", full_disk)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        assert module.twice(20) == 41
    texts = [str(w.message) for w in said if "numba's cache" in str(w.message)]
    assert len(texts) == 1 and "No space left on device" in texts[0], texts
