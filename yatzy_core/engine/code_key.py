"""The version of the code that computes values, for the solved tables on disk: a table written by
other code is never read (the package version, 0.1.0 through every change, cannot tell them apart).

What counts is every Python file under `game/` (rules, scorers, states), `engine/` (the solvers,
`compiled/`'s kernels included) and `objectives/` (target, risk and whole-game tables): the code a
stored number can depend on. `players/`, `advice/`, `cli/` and `ui/` only read tables, so an edit
there keeps them. Any edit in the three folders, a comment too, means solving again once: cheaper
than trusting one wrong number. Rule files are not hashed here: a table's name and contents carry
the fingerprint of the rules themselves (`cache.rules_fingerprint`).

>>> len(code_key()), code_key() == value_code_sha256()[:KEY_CHARS]
(12, True)
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Iterable

__all__ = ["VALUE_CODE", "KEY_CHARS", "sources_sha256", "value_code_sha256", "code_key"]

VALUE_CODE = ("game", "engine", "objectives")   # the package folders whose code computes values
KEY_CHARS = 12
PACKAGE = Path(__file__).resolve().parents[1]


def sources_sha256(files: Iterable[Path], root: Path) -> str:
    """sha256 (hex) of these files, each by its path under `root` and its bytes, in path order:
    a renamed, added, removed or edited file changes it."""
    h = hashlib.sha256()
    for name, path in sorted((p.relative_to(root).as_posix(), p) for p in files):
        data = path.read_bytes()
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def value_code_sha256(root: Path = PACKAGE) -> str:
    """`sources_sha256` of the package's value code (`VALUE_CODE`) under `root` (a copy of the
    package in a test; the package itself by default)."""
    return sources_sha256([p for folder in VALUE_CODE for p in (Path(root) / folder).rglob("*.py")], Path(root))


@lru_cache(maxsize=1)
def code_key() -> str:
    """The first KEY_CHARS hex digits of this package's `value_code_sha256`, computed once a process."""
    return value_code_sha256()[:KEY_CHARS]
