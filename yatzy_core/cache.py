"""Solutions saved as .npz files in a per-user cache, so a rule set is solved once per machine.

A file holds the rule set's name, the package version, the reachable values and a checksum of
them; anything that does not match (another version, another rule set, damaged bytes) is
solved again rather than trusted.
"""
from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

import numpy as np
import platformdirs

from . import __version__
from .rules import Rules, get_rules
from .solver import Solution, solve
from .states import StateSpace

FORMAT = 3  # values then second moments (ties broken as in policy.py) of the reachable states


class CacheError(ValueError):
    """A solution file that cannot be trusted."""


def cache_dir() -> Path:
    """Where solved tables live: $YATZY_CACHE_DIR, else the platform's user cache directory."""
    return Path(os.environ.get("YATZY_CACHE_DIR") or platformdirs.user_cache_dir("yatzy-core"))


def cache_path(rules: Rules) -> Path:
    return cache_dir() / f"{rules.name}-v{__version__}.npz"


def _checksum(numbers: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(numbers, dtype="<f8").tobytes()).hexdigest()


def write_trusted(path: str | Path, rules_name: str, numbers: np.ndarray, fmt: int, **extra) -> Path:
    """Write `numbers` with the rules' name, package version, file format and a checksum
    (atomically: a half-written file is never left under the real name)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, numbers=numbers, rules=rules_name, version=__version__, format=fmt,
                        checksum=_checksum(numbers), **extra)
    tmp.replace(path)
    return path


def read_trusted(path: str | Path, rules: Rules, fmt: int) -> dict[str, np.ndarray]:
    """Every field of a file written by `write_trusted`; CacheError unless the rules, package
    version, format and checksum all match."""
    try:
        with np.load(path, allow_pickle=False) as data:
            fields = {k: data[k] for k in data.files}
        stored = str(fields["rules"]), str(fields["version"]), int(fields["format"])
        numbers, checksum = fields["numbers"], str(fields["checksum"])
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as err:
        raise CacheError(f"unreadable file {path}: {err}") from None
    if stored[0] != rules.name:
        raise CacheError(f"{path} holds rules {stored[0]}, not {rules.name}")
    if stored[1:] != (__version__, fmt):
        raise CacheError(f"{path} was written by version {stored[1]} (format {stored[2]}), "
                         f"this is {__version__} (format {fmt})")
    if _checksum(numbers) != checksum:
        raise CacheError(f"{path} is damaged (checksum mismatch)")
    return fields


def save(solution: Solution, path: str | Path) -> Path:
    """Write the reachable states' values and second moments (a few MB) with what identifies them."""
    keep = solution.space.reachable
    second = solution.second[keep] if solution.second is not None else np.zeros(0)
    numbers = np.concatenate([solution.values[keep], second])
    return write_trusted(path, solution.rules.name, numbers, FORMAT, seconds=solution.seconds)


def load(path: str | Path, rules: str | Rules) -> Solution:
    """Read a saved solution; CacheError if it is damaged or belongs to other rules/versions."""
    rules = get_rules(rules)
    fields = read_trusted(path, rules, FORMAT)
    reachable = fields["numbers"]
    space = StateSpace(rules)
    n = int(space.reachable.sum())
    if reachable.shape not in ((n,), (2 * n,)):
        raise CacheError(f"{path} is damaged (holds {reachable.shape} numbers for {n} states)")
    values = np.zeros(space.size)
    values[space.reachable] = reachable[:n]
    second = None
    if len(reachable) == 2 * n:
        second = np.zeros(space.size)
        second[space.reachable] = reachable[n:]
    return Solution(rules, values, float(fields["seconds"]), second)


def get_solution(rules: str | Rules, use_cache: bool = True, progress: bool = True) -> Solution:
    """The solution of a rule set: from the cache if a trustworthy file is there, else solved
    (and cached). With use_cache=False the cache is neither read nor written."""
    rules = get_rules(rules)
    if not use_cache:
        return solve(rules, progress=progress)
    path = cache_path(rules)
    if path.exists():
        try:
            return load(path, rules)
        except CacheError:
            pass  # rebuilt below, never trusted
    solution = solve(rules, progress=progress)
    save(solution, path)
    return solution
