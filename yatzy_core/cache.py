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


def _checksum(values: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(values, dtype="<f8").tobytes()).hexdigest()


def save(solution: Solution, path: str | Path) -> Path:
    """Write the reachable states' values and second moments (a few MB) with what identifies them."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    keep = solution.space.reachable
    second = solution.second[keep] if solution.second is not None else np.zeros(0)
    reachable = np.concatenate([solution.values[keep], second])
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, values=reachable, rules=solution.rules.name, version=__version__,
                        format=FORMAT, checksum=_checksum(reachable), seconds=solution.seconds)
    tmp.replace(path)
    return path


def load(path: str | Path, rules: str | Rules) -> Solution:
    """Read a saved solution; CacheError if it is damaged or belongs to other rules/versions."""
    rules = get_rules(rules)
    try:
        with np.load(path, allow_pickle=False) as data:
            fields = {k: data[k] for k in ("values", "rules", "version", "format", "checksum", "seconds")}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as err:
        raise CacheError(f"unreadable solution file {path}: {err}") from None
    if str(fields["rules"]) != rules.name:
        raise CacheError(f"{path} holds rules {fields['rules']}, not {rules.name}")
    if str(fields["version"]) != __version__ or int(fields["format"]) != FORMAT:
        raise CacheError(f"{path} was written by version {fields['version']}, this is {__version__}")
    reachable = fields["values"]
    space = StateSpace(rules)
    n = int(space.reachable.sum())
    if reachable.shape not in ((n,), (2 * n,)) or _checksum(reachable) != str(fields["checksum"]):
        raise CacheError(f"{path} is damaged (checksum or size mismatch)")
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
