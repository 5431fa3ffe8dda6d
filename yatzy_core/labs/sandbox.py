"""The student's function runs in a child process: a time limit, `sys.exit()` and a crash end
that process, never the notebook's kernel, and the package's own solvers are taken away there.

Why a child: an endless loop in plain Python, or in a long numpy call, cannot be stopped inside
the kernel's process, and `sys.exit()` or `os._exit()` would end the kernel. The child is forked,
so the student's function (defined in the notebook, not importable) is there as it is; it answers
one call at a time over a pipe, and its caches persist between the calls of one check.

Why take the solvers away: a lab asks the student to write what the package already computes
(`DiceSpace.p_exact`, `keeper_values`, `solve`, `solve_targets`, ...). Calling them would pass the
check without the student writing anything. In the child every function of the package's
engine, objectives, advice and players layers, and the dice's probability methods, is replaced
by one that records the call, wherever a name for it is held (the package's modules, the
student's globals and closures); a call is reported whatever the function then does.

>>> with Student(lambda n: n * n) as ask:
...     ask("at n = 3", 3)
9
"""
from __future__ import annotations

import io
import multiprocessing
import sys
import types
from importlib import import_module

__all__ = ["TIME_LIMIT", "Student", "Stopped", "Bypassed", "Raised"]

TIME_LIMIT = 30.0     # seconds one call of the student's function may take
LAYERS = ("yatzy_core.engine", "yatzy_core.objectives", "yatzy_core.advice", "yatzy_core.players")
DICE_METHODS = ("p_exact", "transition", "roll_probabilities")   # DiceSpace's P(roll | keeper)


class Stopped(Exception):
    """The student's process ended or was ended (time limit, exit, crash): no more calls."""


class Raised(Exception):
    """The student's function raised, called sys.exit() or recursed without end: the message says
    where and what; the next call may still be answered."""


class Bypassed(Exception):
    """The student's function called one of the package's solvers that the lab asks them to write."""


class _Taken(BaseException):
    """Raised by a taken-away function (BaseException: a student's `except Exception` does not hide it)."""


def _taken(name: str, called: list):
    def stand_in(*args, **kwargs):
        called.append(name)
        raise _Taken(name)
    stand_in.__name__ = name.rsplit(".", 1)[-1]
    return stand_in


def _forbidden() -> dict[int, str]:
    """id -> public name of every function taken away in the child."""
    found = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(LAYERS):
            continue
        for attr, value in vars(module).items():
            if isinstance(value, types.FunctionType) and value.__module__ == name:
                found[id(value)] = f"{attr} ({name})"
    return found


def _take_away(f, called: list) -> None:
    """Replace every forbidden function wherever the package or the student's function names it."""
    for layer in LAYERS:
        import_module(layer)
    forbidden = _forbidden()
    namespaces = [vars(m) for n, m in list(sys.modules.items()) if m is not None and n.startswith("yatzy_core")]
    namespaces.append(getattr(f, "__globals__", {}))
    for space in namespaces:
        for attr, value in list(space.items()):
            if id(value) in forbidden and isinstance(value, types.FunctionType):
                space[attr] = _taken(forbidden[id(value)], called)
    for cell in getattr(f, "__closure__", None) or ():
        try:
            if id(cell.cell_contents) in forbidden:
                cell.cell_contents = _taken(forbidden[id(cell.cell_contents)], called)
        except ValueError:                                   # an empty cell
            pass
    from ..game.dice import DiceSpace
    for method in DICE_METHODS:
        stand_in = _taken(f"DiceSpace.{method} (yatzy_core.game.dice)", called)
        setattr(DiceSpace, method, property(stand_in) if method == "transition" else stand_in)


def _answer(f, args: tuple, called: list) -> tuple[str, object]:
    """f(*args) as (kind, value): what it returned, or how it failed."""
    called.clear()
    try:
        reply = ("ok", f(*args))
    except NotImplementedError:
        reply = ("stub", "")
    except _Taken:
        reply = ("ok", None)
    except SystemExit as e:
        reply = ("exit", repr(e.code))
    except RecursionError:
        reply = ("recursion", "")
    except Exception as e:  # noqa: BLE001 (the student's own error, reported, not raised)
        reply = ("raised", f"{type(e).__name__}: {e}")
    return ("bypassed", called[0]) if called else reply


def _serve(conn, f) -> None:
    """The child: answer each call (a tuple of arguments) with one reply, until the pipe closes."""
    out = io.StringIO()
    sys.stdout = sys.stderr = out                 # the student's prints come back with the answer
    called: list[str] = []
    _take_away(f, called)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    while True:
        try:
            args = conn.recv()
        except EOFError:
            return
        reply = _answer(f, args, called)
        printed, _ = out.getvalue(), (out.seek(0), out.truncate())
        try:
            conn.send((*reply, printed))
        except Exception as e:  # noqa: BLE001 (an answer pickle cannot carry: a lambda, a generator)
            conn.send(("raised", f"its answer cannot be read ({type(e).__name__}: {e})", printed))


class Student:
    """The student's function `f` in a child process; `with Student(f) as ask: ask(where, *args)`
    returns f(*args) or raises: NotImplementedError (a stub), Bypassed, Stopped, or an exception
    whose message names `where` (see `ask`)."""

    def __init__(self, f, time_limit: float = TIME_LIMIT):
        self.f, self.time_limit = f, float(time_limit)
        self.process = self.conn = None

    def __enter__(self):
        if "fork" not in multiprocessing.get_all_start_methods():    # Windows: no child, no time limit
            return self._here
        parent, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(target=_serve, args=(child, self.f), daemon=True)
        self.process.start()
        child.close()
        self.conn = parent
        return self.ask

    def __exit__(self, *exc) -> None:
        if self.process is None:
            return
        self.conn.close()
        self.process.join(1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()

    def ask(self, where: str, *args):
        """f(*args) as the child answers it, printing what it printed."""
        if not self.process.is_alive():
            raise Stopped(f"{where}: your function's process has ended")
        self.conn.send(args)
        if not self.conn.poll(self.time_limit):
            self.process.kill()
            raise Stopped(f"{where}: your function did not return within {self.time_limit:g} s "
                          "(a loop that never ends, or a recursion that never reaches a known case?)")
        try:
            kind, value, printed = self.conn.recv()
        except (EOFError, OSError):
            self.process.join(1)
            raise Stopped(f"{where}: your function ended the process (exit code {self.process.exitcode}); "
                          "return a value instead") from None
        print(printed, end="")
        return self._reply(where, kind, value)

    def _here(self, where: str, *args):
        """f(*args) in this process, where fork is not available: sys.exit() is still caught, but
        nothing bounds the time and the package's solvers stay callable."""
        kind, value = _answer(self.f, args, [])
        return self._reply(where, kind, value)

    @staticmethod
    def _reply(where: str, kind: str, value):
        if kind == "ok":
            return value
        if kind == "stub":
            raise NotImplementedError
        if kind == "bypassed":
            raise Bypassed(f"{where}: your function calls the package's {value}; the lab asks you to "
                           "compute it yourself (the check runs your function without the package's solvers)")
        if kind == "exit":
            raise Raised(f"{where}: your function called sys.exit({value}); return a value instead")
        if kind == "recursion":
            raise Raised(f"{where}: your function never stopped calling itself (RecursionError): "
                        "does it reach a case it can answer without recursion?")
        raise Raised(f"{where}: your function raised {value}"[:300])
