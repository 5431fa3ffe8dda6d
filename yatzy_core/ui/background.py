"""Work that a newer request supersedes: one worker thread, and only the newest request counts.

A widget that re-solves on every change must not queue a solve per slider move. `Latest` runs
jobs one at a time on a worker thread. A job submitted while another runs replaces any job still
waiting, and the running job learns it is stale at its next `checkpoint()`, which raises
`Superseded` (the solver calls its progress bar between layers, so a solve stops there; the
compiled kernel itself is never interrupted mid-layer). A stale job's result is never delivered.

A job computes on the worker and returns what shows its result (a function, or None): that runs
on the thread that made the `Latest`, through its asyncio loop when one runs there (a Jupyter
kernel), and only if no newer job came meanwhile. Widgets are not thread-safe: a plotly
`FigureWidget` changed from the worker while the kernel handled the page's reply to its last
change lost its new bars (ipywidgets sends only the last value of a message trait it holds).
Errors reach `on_error` the same way (a stale job's error is dropped too). With no loop running
(a script, a test) both run at once on the worker, so `wait()` returns after them; in a kernel
`wait()` returns when the work is done and the showing is queued on the kernel's thread.

>>> done = []
>>> latest = Latest(on_error=print)
>>> latest.submit(lambda checkpoint: lambda: done.append(1))
>>> latest.wait(), done, latest.superseded
(True, [1], 0)
"""
from __future__ import annotations

import asyncio
import functools
import threading
from typing import Callable

__all__ = ["Latest", "Superseded", "reraise"]

Job = Callable[[Callable[[], None]], "Callable[[], None] | None"]   # checkpoint -> what shows it


def reraise(err: BaseException) -> None:
    """An error caught on the worker raised again where results show (or inside `Output.capture`)."""
    raise err


class Superseded(Exception):
    """Raised at a checkpoint of a job that a newer submission has replaced."""


class Latest:
    """Runs the newest submitted job on one worker thread; older ones are dropped or stopped."""

    def __init__(self, on_error: Callable[[BaseException], None]):
        self.on_error = on_error            # called (where results show) with a job's exception
        self.superseded = 0                 # jobs stopped at a checkpoint, never started or not shown
        try:                                # where results are shown: this thread's loop, if any
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        self._lock = threading.Lock()
        self._generation = 0
        self._waiting: tuple[int, Job] | None = None
        self._worker: threading.Thread | None = None

    def submit(self, job: Job) -> None:
        """Run `job(checkpoint)` soon on the worker, replacing whatever has not finished."""
        with self._lock:
            self._generation += 1
            if self._waiting is not None:
                self.superseded += 1
            self._waiting = (self._generation, job)
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="yatzy-latest", daemon=True)
                self._worker.start()

    def supersede(self) -> None:
        """Make every job submitted so far stale: one waiting never starts, one running stops at
        its checkpoint, and no result of theirs is shown."""
        with self._lock:
            self._generation += 1
            if self._waiting is not None:
                self.superseded += 1
            self._waiting = None

    def checkpoint_for(self, generation: int) -> Callable[[], None]:
        def checkpoint() -> None:
            if self._generation != generation:
                raise Superseded
        return checkpoint

    def _work(self) -> None:
        while True:
            with self._lock:
                if self._waiting is None:
                    self._worker = None
                    return
                generation, job = self._waiting
                self._waiting = None
            try:
                self._run(generation, job)
            except BaseException:
                with self._lock:               # never leave a dead worker marked as running
                    self._worker = None
                raise

    def _run(self, generation: int, job: Job) -> None:
        try:
            show = job(self.checkpoint_for(generation))
        except Superseded:
            with self._lock:
                self.superseded += 1
        except Exception as err:   # noqa: BLE001 - raised again where results show: on_error
            self._at_home(generation, functools.partial(reraise, err))
        else:
            if show is not None:
                self._at_home(generation, show)

    def _at_home(self, generation: int, show: Callable[[], None]) -> None:
        """Run `show` on the thread that made this, unless a newer job came by then."""
        def run() -> None:
            if generation != self._generation:
                with self._lock:
                    self.superseded += 1
                return
            try:
                show()
            except Exception as err:   # noqa: BLE001 - shown to the user by on_error
                self.on_error(err)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(run)
                return
            except RuntimeError:               # the loop closed meanwhile
                pass
        run()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every submitted job has finished or been superseded; False on timeout."""
        while True:                      # a job finishing may hand over to a new worker
            with self._lock:
                worker = self._worker
            if worker is None:
                return True
            worker.join(timeout)
            if worker.is_alive():
                return False

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._worker is not None
