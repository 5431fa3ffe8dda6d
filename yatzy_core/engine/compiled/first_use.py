"""The warm-up said before it happens: a kernel used for the first time on a machine is compiled
by numba (tens of seconds to minutes), then read from numba's disk cache (about a second). A
bar that sits at 0 meanwhile looks like a hang, so the first use says what it compiles.

>>> compiled_before(lambda: None)     # not a numba kernel: nothing to compile
True
"""
from __future__ import annotations

import importlib
import os

from ..progress import announce

__all__ = ["compiled_before", "announce_compiling"]


def compiled_before(kernel) -> bool:
    """Whether `kernel` (an `@njit(cache=True)` function) has machine code at hand: loaded in
    this process, or an index in numba's disk cache (a stale one compiles anyway: said too
    little, never too much)."""
    if getattr(kernel, "signatures", None):
        return True
    try:
        return os.path.exists(kernel._cache._cache_file._index_path)
    except AttributeError:   # not numba's, or another numba's layout: nothing to say
        return True


def announce_compiling(kernel: str, what: str, seconds: float) -> None:
    """One line before the first compilation on this machine of `kernel`, named as 'module.name'
    in this folder ('kernel._solve_groups'): what, roughly how long."""
    module, name = kernel.rsplit(".", 1)
    if not compiled_before(getattr(importlib.import_module(f"{__package__}.{module}"), name)):
        announce(f"compiling {what} (first use on this machine; kept in numba's cache)", seconds)
