"""Solutions saved as .npz files in a per-user cache, so a rule set is solved once per machine.

A file is keyed by what the rules DO, not what they are called, and by the code that computed
it: its name carries a fingerprint of the rules' content (`rules_fingerprint`) and the key of the
value code (`code_key.code_key`), and the file holds both, the rules' name, the package version,
the numbers and a checksum of them. Anything that does not match (another version or code, other
rules, damaged bytes, a file that does not decode) is solved again rather than trusted. A cache that cannot be read or written costs a warning line, never the answer.

>>> safe_name("../../etc/Yahtzee 2!")
'etc-yahtzee-2'
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import stat
import tempfile
import time
import warnings
import weakref
import zipfile
from pathlib import Path
from typing import Callable, TypeVar

import numpy as np
import platformdirs

from ..version import __version__
from .code_key import KEY_CHARS, code_key
from ..game.rules import Rules, get_rules
from .solver import Solution, solve
from ..game.states import StateSpace
from .plain_files import open_plain

FORMAT = 5          # fingerprint-keyed, layout-checked; values, then second moments if present
NAME_CHARS = 40     # a file name keeps at most this many characters of the rules' name
FINGERPRINT_CHARS = 16
T = TypeVar("T")

__all__ = ["CacheError", "CacheWarning", "cache_dir", "cache_path", "rules_fingerprint",
           "safe_name", "layout_digest", "write_trusted", "read_trusted", "read_header", "save", "load", "cached", "cached_for",
           "get_solution", "new_file_mode", "remove_stale_temporaries", "remove_oldest", "never_cache", "cacheable"]


class CacheError(ValueError):
    """A solution file that cannot be trusted."""


class CacheWarning(UserWarning):
    """The cache could not be used; the answer was computed (and returned) anyway."""


def cache_dir() -> Path:
    """Where solved tables live: $YATZY_CACHE_DIR, else the platform's user cache directory."""
    return Path(os.environ.get("YATZY_CACHE_DIR") or platformdirs.user_cache_dir("yatzy-core"))


# ---- what a file is keyed by ---------------------------------------------------------------------

def _plain(value):
    """A JSON-ready copy of a scalar (or tuple of scalars) field; None marks anything else."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return [type(value).__name__, value]
    if isinstance(value, tuple) and all(v is None or isinstance(v, (bool, int, float, str)) for v in value):
        return ["tuple", [_plain(v) for v in value]]
    return None


def rules_fingerprint(rules: Rules) -> str:
    """sha256 (hex) of everything a rule set's tables depend on, never its name or description:
    every plain field of Rules (new fields join automatically), every box's plain fields, and the
    bytes of the score and joker tables (which pin down what each scorer does).

    >>> y = get_rules("yahtzee-no-bonus")
    >>> rules_fingerprint(y) == rules_fingerprint(y.with_(name="mine", description="x"))
    True
    >>> rules_fingerprint(y) == rules_fingerprint(y.with_(upper_bonus=50))
    False
    """
    skip = {"name", "description"}
    if not rules.saved_rolls:   # a field added later, left out at its default: old keys stay
        skip.add("saved_rolls")
    fields = {f.name: _plain(getattr(rules, f.name)) for f in dataclasses.fields(rules)
              if f.name not in skip}
    fields["boxes"] = [{f.name: _plain(getattr(b, f.name)) for f in dataclasses.fields(b)}
                       for b in rules.boxes]
    h = hashlib.sha256(json.dumps(fields, sort_keys=True).encode())
    for table in (rules.score_table, rules.joker_table):
        h.update(repr(table.shape).encode())
        h.update(np.ascontiguousarray(table, dtype="<i8").tobytes())
    return h.hexdigest()


def safe_name(name: str) -> str:
    """A rule set's name as a file-name part: [a-z0-9_-] only, at most NAME_CHARS long."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", str(name).lower()).strip("-_")
    return slug[:NAME_CHARS].rstrip("-_") or "rules"


def cache_path(rules: Rules, kind: str = "") -> Path:
    """The cache file of one rule set (and kind of table: "" for the solution, "play", ...):
    safe name, fingerprint prefix, version and code key, so variants sharing a name never share
    a file, and tables of other code (an older checkout, another branch) are never read."""
    version = re.sub(r"[^0-9A-Za-z.+_-]", "-", __version__)
    suffix = f"-{safe_name(kind)}" if kind else ""
    fingerprint = rules_fingerprint(rules)[:FINGERPRINT_CHARS]
    return cache_dir() / f"{safe_name(rules.name)}-{fingerprint}-v{version}-{code_key()}{suffix}.npz"


_NEVER_CACHED: "weakref.WeakSet[Rules]" = weakref.WeakSet()


def never_cache(rules: Rules) -> Rules:
    """Mark `rules` as never written to the cache, and return them: the game of a position's
    open boxes is one per position and solved in a fraction of a second, so caching it would
    only grow the folder without bound."""
    _NEVER_CACHED.add(rules)
    return rules


def cacheable(rules: Rules) -> bool:
    """Whether tables of `rules` are read from and written to the cache (`never_cache`)."""
    return rules not in _NEVER_CACHED


# ---- trusted files ------------------------------------------------------------------------------

def layout_digest(space: StateSpace) -> str:
    """sha256 (hex) of which states are stored: a table saved under another reachability rule
    (another version of the code) is refused, never read into the wrong states.

    >>> layout_digest(StateSpace(get_rules("yatzy")))[:12]
    'aec9226b70c4'
    """
    return hashlib.sha256(np.packbits(space.reachable).tobytes()).hexdigest()


def _checksum(numbers: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(numbers, dtype="<f8").tobytes()).hexdigest()


def write_trusted(path: str | Path, rules: Rules, numbers: np.ndarray, fmt: int, **extra) -> Path:
    """Write `numbers` with the rules' name and fingerprint, the package version and code key, the
    file format and a checksum. Atomic and safe beside other
    writers: a unique temporary file (never a followed link) renamed over the real name, and
    removed if anything fails."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), new_file_mode())    # as any new file of the user's, not 0600
            np.savez_compressed(f, numbers=numbers, rules=rules.name,
                                fingerprint=rules_fingerprint(rules), version=__version__, code=code_key(),
                                format=fmt, checksum=_checksum(numbers), **extra)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


STALE_SECONDS = 3600   # no cache write takes an hour: an older temporary file lost its writer
QUIET_SECONDS = 60     # a writer's pid that is gone here may live on another machine sharing the
                       # folder (a network home): its file is left a minute, far longer than a write
TEMPORARY = re.compile(r"\.(?P<name>[A-Za-z0-9_.+-]+\.npz)\.(?:(?P<pid>[0-9]+)\.)?[a-z0-9_]+\.tmp")


def new_file_mode() -> int:
    """The mode a newly created file gets (0o666 less the umask): a temporary file from mkstemp
    is 0600, and the file it becomes should be like any other the user creates."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def remove_stale_temporaries(folder: Path, now: float | None = None) -> list[Path]:
    """Delete the temporary files `write_trusted` left in `folder` when its process was killed
    (kill -9, power loss): only names of our own pattern, and only when the file is older than
    STALE_SECONDS, or its writer's process is gone and the file untouched for QUIET_SECONDS; never
    one a live writer is still filling.
    Returns what was removed; a file that cannot be removed is left alone."""
    now = time.time() if now is None else now
    removed = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            found = TEMPORARY.fullmatch(entry.name)
            if not found:
                continue
            with contextlib.suppress(OSError):
                age = now - entry.stat(follow_symlinks=False).st_mtime
                if entry.is_file(follow_symlinks=False) and (
                        age > STALE_SECONDS
                        or age > QUIET_SECONDS and found["pid"] and not _alive(int(found["pid"]))):
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
    return removed


def remove_oldest(kept: Path, family: re.Pattern, most: int) -> list[Path]:
    """Delete the least recently written files of `kept`'s folder whose names fullmatch
    `family` (`kept`, just written, stays), so that at most `most` remain: a cache keyed by a
    free number (risk tables, one per theta) must not grow without bound. A link is removed
    itself, never its target; a folder, FIFO or device is left, and so is what cannot be removed.
    Returns what was removed."""
    found = []
    with contextlib.suppress(OSError), os.scandir(kept.parent) as entries:
        for entry in entries:
            if entry.name != kept.name and family.fullmatch(entry.name):
                with contextlib.suppress(OSError):
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode):
                        found.append((info.st_mtime_ns, entry.path))
    removed = []
    for _, path in sorted(found)[:max(len(found) - max(most - 1, 0), 0)]:
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed.append(Path(path))
    return removed


def _alive(pid: int) -> bool:
    """Whether a process with this id runs here (another user's counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _decode(path: Path) -> dict[str, np.ndarray]:
    """Every field of an .npz file, read without following a link at `path` and without
    waiting: a FIFO planted there would block a plain open (every solve would hang)."""
    try:
        f = open_plain(path)
    except ValueError:
        raise CacheError(f"{path} is not a regular file (a FIFO, device or socket)") from None
    with f, np.load(f, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def read_trusted(path: str | Path, rules: Rules, fmt: int,
                 layout: str | None = None) -> dict[str, np.ndarray]:
    """Every field of a file written by `write_trusted`; CacheError unless it decodes and the
    rules' fingerprint, package version, code key, format, checksum and (when given) the state
    layout digest all match. The rules' name is not compared: rule sets that differ only in name
    ("nine", "Nine!": one file name) share the file instead of evicting each other.
    A missing file is a FileNotFoundError."""
    fields = _trusted_fields(path, rules, fmt, layout, _decode)
    try:
        numbers = np.asarray(fields["numbers"], dtype=np.float64)
    except Exception as err:
        raise CacheError(f"unreadable file {path}: {type(err).__name__}: {err}"[:300]) from None
    if numbers.ndim != 1 or _checksum(numbers) != str(fields["checksum"]):
        raise CacheError(f"{path} is damaged (checksum mismatch)")
    fields["numbers"] = numbers
    return fields


def read_header(path: str | Path, rules: Rules, fmt: int, layout: str | None = None) -> dict[str, np.ndarray]:
    """The fields of a `write_trusted` file but its numbers, checked as `read_trusted` checks
    them, and the numbers' shape as "shape" (read from their header, in milliseconds where
    reading them takes seconds): whether a file is there and whole, without its checksum."""
    return _trusted_fields(path, rules, fmt, layout, _decode_header)


def _decode_header(path: Path) -> dict:
    try:
        f = open_plain(path)
    except ValueError:
        raise CacheError(f"{path} is not a regular file (a FIFO, device or socket)") from None
    with f, zipfile.ZipFile(f) as archive:
        fields = {}
        for name in archive.namelist():
            with archive.open(name) as member:
                if name == "numbers.npy":
                    major, _ = np.lib.format.read_magic(member)
                    header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
                    fields["shape"] = header(member)[0]
                else:
                    fields[name.removesuffix(".npy")] = np.lib.format.read_array(member, allow_pickle=False)
        return fields


def _trusted_fields(path, rules: Rules, fmt: int, layout: str | None, decode) -> dict:
    """The fields `decode` reads from `path`, CacheError unless their rules, version, code key,
    format and layout are these; numbers and checksum are the caller's."""
    try:
        fields = decode(Path(path))
        stored = str(fields["rules"]), str(fields["version"]), int(fields["format"])
        code = str(fields.get("code", "none"))
        fingerprint = str(fields["fingerprint"])
        str(fields["checksum"])
    except (FileNotFoundError, CacheError):
        raise
    except Exception as err:  # zlib.error, NotImplementedError, BadZipFile, ...: all damage
        raise CacheError(f"unreadable file {path}: {type(err).__name__}: {err}"[:300]) from None
    if stored[1:] != (__version__, fmt):
        raise CacheError(f"{path} was written by version {stored[1]} (format {stored[2]}), "
                         f"this is {__version__} (format {fmt})")
    if code != code_key():
        raise CacheError(f"{path} was written by other code (key {code[:KEY_CHARS]}, this is {code_key()})")
    if fingerprint != rules_fingerprint(rules):   # the name is not checked: equal rules share tables
        raise CacheError(f"{path} holds rules {stored[0]}, not {rules.name}" if stored[0] != rules.name
                         else f"{path} holds other rules under the name {rules.name!r}")
    if layout is not None and str(fields.get("layout", "")) != layout:
        raise CacheError(f"{path} stores another set of states (written by other code)")
    return fields


# ---- solutions ----------------------------------------------------------------------------------

def save(solution: Solution, path: str | Path) -> Path:
    """Write the reachable states' values, and second moments when the solution has them."""
    keep = solution.space.reachable
    second = solution.second[keep] if solution.second is not None else np.zeros(0)
    numbers = np.concatenate([solution.values[keep], second])
    return write_trusted(path, solution.rules, numbers, FORMAT, seconds=solution.seconds,
                         layout=layout_digest(solution.space))


def load(path: str | Path, rules: Rules) -> Solution:
    """Read a saved solution (with or without second moments); CacheError if it is damaged or
    belongs to other rules/versions."""
    space = StateSpace(rules)
    fields = read_trusted(path, rules, FORMAT, layout_digest(space))
    reachable = fields["numbers"]
    n = int(space.reachable.sum())
    if reachable.shape not in ((n,), (2 * n,)):
        raise CacheError(f"{path} is damaged (holds {reachable.shape} numbers for {n} states)")
    try:
        seconds = float(fields["seconds"])
    except Exception:
        raise CacheError(f"{path} is damaged (no solving time)") from None
    values = np.zeros(space.size)
    values[space.reachable] = reachable[:n]
    second = None
    if len(reachable) == 2 * n:
        second = np.zeros(space.size)
        second[space.reachable] = reachable[n:]
    return Solution(rules, values, seconds, second)


def _warn(message: str) -> None:
    warnings.warn(f"yatzy-core cache: {message}", CacheWarning, stacklevel=4)


def cached(path: Path, read: Callable[[Path], T], make: Callable[[], T],
           write: Callable[[T, Path], object], lock: bool = False) -> T:
    """read(path) if it is there and trustworthy; else make() and write it. Each fault of the
    cache (damaged file, unreadable or unwritable place) is one CacheWarning; the answer stands.
    A damaged file is said before make() starts, not after: a rebuild takes minutes, and a quiet
    one looks like a hang. A place that can be neither read nor written is one line. With `lock`
    the build holds a lock on its file (`compiled.cache_lock.build_lock`): a second process
    building the same file at once waits, saying so, then reads the first's file."""
    found, result, problem = _read_or_why(path, read, True)
    if found:
        return result
    if not lock:
        return _make_and_write(path, make, write, problem)
    from .compiled.cache_lock import build_lock     # here: `import yatzy_core` does not load numba
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
    with build_lock(str(build_lock_path(path)), lambda fd, _lock: _waiting_line(fd, path.name)):
        found, result, _ = _read_or_why(path, read, False)      # built meanwhile by the lock's last holder
        return result if found else _make_and_write(path, make, write, problem)


def build_lock_path(path: Path) -> Path:
    """The lock file a build of `path` holds (`cached` with `lock`): hidden, beside it."""
    return path.parent / f".{path.name}.lock"


def _waiting_line(fd: int, name: str) -> str:
    from .compiled.cache_lock import lock_holder
    holder = lock_holder(fd)
    return (f"yatzy: {'process ' + holder if holder else 'another process'} is building "
            f"{name}: waiting for it, then reading its file (Ctrl-C to stop)")


def _read_or_why(path: Path, read: Callable[[Path], T], say: bool) -> tuple[bool, T | None, str | None]:
    """(read, its result, a fault to say with the write's): a damaged file is warned at once when `say`."""
    try:
        return True, read(path), None
    except (FileNotFoundError, NotADirectoryError):
        return False, None, None      # not cached yet (or the folder is not there)
    except CacheError as err:
        if isinstance(err.__context__, OSError):     # the place, not the file (a folder there, a file as
            return False, None, f"{err}; computed again"   # the folder): said with the write's fault
        damage = f"{err}; computed again"
    except OSError as err:            # said with the write's fault when that fails too
        return False, None, f"cannot read {path} ({type(err).__name__}: {err.strerror or err}); computed again"
    except Exception as err:          # a file that decodes but does not make sense: damage too
        damage = f"{path} is damaged ({type(err).__name__}: {err}); computed again"
    if say:
        _warn(damage)
    return False, None, None


def _make_and_write(path: Path, make: Callable[[], T], write: Callable[[T, Path], object], problem) -> T:
    result = make()
    try:
        write(result, path)
    except OSError as err:
        problem = (f"cannot write {path} ({type(err).__name__}: {err.strerror or err}); "
                   "the answer is not cached")
    if problem:
        _warn(problem)
    return result


def cached_for(rules: Rules, kind: str, read: Callable[[Path], T], make: Callable[[], T],
               write: Callable[[T, Path], object], use_cache: bool = True, lock: bool = False) -> T:
    """`cached` at the file of `rules` and `kind` (`cache_path`); only make() with
    use_cache=False or for rules that are never cached (`never_cache`)."""
    if not use_cache or not cacheable(rules):
        return make()
    return cached(cache_path(rules, kind), read, make, write, lock)


def get_solution(rules: str | Rules, use_cache: bool = True, progress: bool = True,
                 moments: bool = False) -> Solution:
    """The solution of a rule set: from the cache if a trustworthy file is there, else solved
    (and cached). With use_cache=False, or for rules never cached (a position's open boxes,
    `never_cache`), the cache is neither read nor written. With moments the
    solution also carries the second moments (`Solution.std`), cached beside the values.

    >>> get_solution("yahtzee-no-bonus", progress=False).value(2**13 - 2, 0)  # only ones left
    2.1064...
    """
    rules = get_rules(rules)
    if not use_cache or not cacheable(rules):
        return solve(rules, progress=progress, moments=moments)
    path = cache_path(rules)
    solution = cached(path, lambda p: load(p, rules),
                      lambda: solve(rules, progress=progress, moments=moments), save)
    if moments and solution.second is None:
        solution.std                    # the moments pass, on the values already there
        try:
            save(solution, path)
        except OSError as err:
            _warn(f"cannot write {path} ({type(err).__name__}: {err.strerror or err}); "
                  "the answer is not cached")
    return solution
