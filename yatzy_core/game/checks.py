"""Argument checks that name the argument: one wording for every public function.

>>> whole_number("points", 12)
12
>>> whole_number("batch", 0, lo=1)
Traceback (most recent call last):
...
ValueError: batch must be a whole number >= 1, got 0
"""
from __future__ import annotations

import numpy as np

__all__ = ["whole_number"]


def whole_number(name: str, value, lo: int = 0) -> int:
    """`value` as an int; ValueError naming `name` unless it is an integer (not a bool) >= lo."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ValueError(f"{name} must be a whole number >= {lo}, got {value!r}")
    return int(value)
