"""Long work in bounded chunks: between two chunks a stop is honoured and progress reported.

A compiled (numba) kernel holds the main thread until it returns, so Python's Ctrl-C handler
(KeyboardInterrupt) waits for it: a table solved one layer per call ignored Ctrl-C for minutes.
Every table solver hands its states to `for_each_chunk`, which calls the kernel on slices sized
to take about `CHUNK_SECONDS` each, so a Ctrl-C is acted on within about that long; states of
one layer are independent of each other, so the values do not depend on how they are sliced.
`request_stop` asks the same of the running work from another thread or a test, without a signal.

>>> sizes = []
>>> for_each_chunk(np.arange(10), lambda part: sizes.append(len(part)), size=4)
>>> sizes
[4, 4, 2]
"""
from __future__ import annotations

import threading
import time
from typing import Callable

import numpy as np

__all__ = ["CHUNK_SECONDS", "Stopped", "request_stop", "clear_stop", "check_stop", "for_each_chunk"]

CHUNK_SECONDS = 0.25     # the aim for one chunk's time: Ctrl-C waits at most about this long
_FIRST_SIZE = 64         # states in the first chunk, before its time is known
_stop = threading.Event()


class Stopped(KeyboardInterrupt):
    """The work was asked to stop (`request_stop`); a KeyboardInterrupt, so that whatever
    handles Ctrl-C (the CLI's one line and exit 130, a notebook's cell) handles it too."""


def request_stop() -> None:
    """Ask the running chunked work to stop at its next chunk (safe from any thread)."""
    _stop.set()


def clear_stop() -> None:
    """Forget a stop that was asked for and not yet acted on."""
    _stop.clear()


def check_stop() -> None:
    """Raise `Stopped` (once) if a stop was asked for."""
    if _stop.is_set():
        _stop.clear()
        raise Stopped("stopped on request")


def for_each_chunk(items, work: Callable[[np.ndarray], object], bar=None, size: int | None = None,
                   seconds: float = CHUNK_SECONDS) -> None:
    """Call `work(part)` on consecutive slices of `items`, checking for a stop before each and
    updating `bar` (anything with tqdm's `update(n)`) after each by the part's length.

    `size` fixes the slice length; by default it adapts so that a slice takes about `seconds`
    (the first is `_FIRST_SIZE` items; a slice grows at most fourfold at a time)."""
    n, lo = len(items), 0
    step = _FIRST_SIZE if size is None else max(1, int(size))
    while lo < n:
        check_stop()
        hi = min(n, lo + step)
        began = time.perf_counter()
        work(items[lo:hi])
        took = time.perf_counter() - began
        if bar is not None:
            bar.update(hi - lo)
        if size is None:
            step = max(1, min(4 * step, int(step * seconds / max(took, 1e-4))))
        lo = hi
    check_stop()
