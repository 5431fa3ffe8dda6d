"""Argument checks that name the argument: one wording for every public function.

>>> whole_number("points", 12)
12
>>> whole_number("batch", 0, lo=1)
Traceback (most recent call last):
...
ValueError: batch must be a whole number >= 1, got 0
>>> real_number("theta", np.float32(0.5))
0.5
>>> instance_of("turns", "11112", list, "a list of lines", optional=True)
Traceback (most recent call last):
...
TypeError: turns must be a list of lines or None, got str
"""
from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["whole_number", "real_number", "instance_of"]


def whole_number(name: str, value, lo: int = 0) -> int:
    """`value` as an int; ValueError naming `name` unless it is an integer (not a bool) >= lo."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ValueError(f"{name} must be a whole number >= {lo}, got {value!r}")
    return int(value)


def real_number(name: str, value) -> float:
    """`value` as a float; ValueError naming `name` unless it is a finite real number (numpy's
    too, not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def instance_of(name: str, value, kind, what: str, optional: bool = False):
    """`value` as it is; TypeError naming `name` (`what` it must be) unless it is a `kind` (a
    class or a tuple of them), or None when `optional`."""
    if not (isinstance(value, kind) or optional and value is None):
        raise TypeError(f"{name} must be {what}{' or None' if optional else ''}, got {type(value).__name__}")
    return value
