"""What a lab's check tells the student: the first wrong case in words (which state or input,
expected against got), or that every check passed, or that the function is not written yet.

A check is a small helper rather than nbgrader or otter-grader: it needs no grading server or
assignment database, it runs inside the student's notebook (and under nbval), and it can say
which state of the recursion is wrong, which a pass/fail test cell cannot.

>>> from fractions import Fraction
>>> show(Fraction(1, 72)), show(0.25), show(1 / 3), show(2.718281828459045)
('1/72', '1/4', '1/3', '2.718281828')
>>> str(Report("f", 6, 6))
'f: all 6 checks passed'
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .sandbox import TIME_LIMIT, Bypassed, Raised, Stopped, Student

__all__ = ["TOLERANCE", "Report", "Wrong", "show", "number", "compare", "function", "run"]

TOLERANCE = 1e-9   # a float answer this close to the reference counts as right
NICE = 100_000     # a float shown as a fraction when one with a denominator up to this is it


@dataclass(frozen=True)
class Report:
    """The outcome of one lab's checks; prints as one line, the first problem if there is one."""

    lab: str          # the student's function, by name
    checks: int       # how many cases were compared
    passed: int
    problem: str = ""  # the first wrong case in words; "" when every check passed

    @property
    def ok(self) -> bool:
        return not self.problem and self.passed == self.checks

    def __str__(self) -> str:
        if self.ok:
            return f"{self.lab}: all {self.checks} checks passed"
        return f"{self.lab}: {self.passed} of {self.checks} checks passed; {self.problem}"

    __repr__ = __str__


class Wrong(Exception):
    """A case is wrong; the message says where and how."""


def show(x) -> str:
    """A number as a student reads it: exact fractions as a/b, a float as a small fraction when
    it is one, else to ten digits."""
    if isinstance(x, numbers.Rational):
        x = Fraction(int(x.numerator), int(x.denominator))
        return str(x)
    if isinstance(x, numbers.Real):
        x = float(x)
        if not math.isfinite(x):
            return str(x)
        near = Fraction(x).limit_denominator(NICE)
        return str(near) if abs(float(near) - x) <= 1e-13 * abs(x) else f"{x:.10g}"
    return f"{type(x).__name__} {x!r}"[:80]


def number(got):
    """The student's answer as a Fraction (exact answers) or a float; None if it is no number
    (a string is none, even "11/2": the lab asks for a number)."""
    if isinstance(got, (bool, np.bool_, str, bytes)) or isinstance(got, np.ndarray) and got.dtype.kind in "USO":
        return None
    if isinstance(got, numbers.Rational):
        return Fraction(int(got.numerator), int(got.denominator))
    if isinstance(got, numbers.Real):
        return float(got)
    try:                                   # sympy's numbers and 0-d arrays, say
        return Fraction(str(got)) if hasattr(got, "q") else float(got)
    except (TypeError, ValueError):
        return None


def compare(where: str, expected, got) -> None:
    """Wrong naming `where` unless `got` is `expected`: exactly when both are exact, else to
    TOLERANCE."""
    value = number(got)
    if value is None:
        raise Wrong(f"{where}: expected a number ({show(expected)}), got {show(got)}")
    if not math.isfinite(value):
        raise Wrong(f"{where}: expected {show(expected)}, got {show(value)}, which is no number a chance or "
                    "an expected score can be (a 0/0, or an inf from a division by zero or an overflow?)")
    exact = isinstance(expected, Fraction) and isinstance(value, Fraction)
    if exact and value != expected or not exact and not abs(float(value) - float(expected)) <= TOLERANCE:
        raise Wrong(f"{where}: expected {show(expected)}, got {show(value)}")


def function(name: str, f) -> None:
    """TypeError naming the argument unless it is a function (the student's)."""
    if not callable(f):
        raise TypeError(f"{name} must be a function (def {name}(...)), got {type(f).__name__}")


def run(lab: str, f, cases, time_limit: float = TIME_LIMIT) -> Report:
    """Run each case on the student's function `f` (a case takes `ask`, calls `ask(where, *args)`
    for f's answers, and raises Wrong when one is wrong) and say how many passed and what the first
    wrong one is. `f` runs in a child process (labs/sandbox.py) without the package's solvers; a stub
    still raising NotImplementedError is reported as not written yet, and a call that takes more
    than `time_limit` seconds or ends the process ends the check with one line."""
    cases = list(cases)
    passed, problem = 0, ""
    with Student(f, time_limit) as ask:
        for case in cases:
            try:
                case(ask)
            except NotImplementedError:
                return Report(lab, len(cases), 0, f"{lab} is not written yet (it raises NotImplementedError): "
                                                  "replace the `raise` line with your code")
            except Stopped as stop:
                return Report(lab, len(cases), passed, problem or str(stop))
            except (Wrong, Raised, Bypassed) as wrong:
                problem = problem or str(wrong)
            except Exception as e:  # noqa: BLE001 (an answer of a shape the check cannot read)
                problem = problem or f"the check could not read your answer ({type(e).__name__}: {e})"[:300]
            else:
                passed += 1
    return Report(lab, len(cases), passed, problem)
