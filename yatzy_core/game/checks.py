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
import unicodedata

import numpy as np

__all__ = ["whole_number", "real_number", "true_or_false", "instance_of", "BIDI", "is_control",
           "control_character", "lone_surrogate"]

BIDI = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))   # text-direction overrides


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


def true_or_false(name: str, value) -> bool:
    """`value` as a bool; TypeError naming `name` unless it is True or False (numpy's too): text
    such as "no" would be taken as true.

    >>> true_or_false("use_cache", np.True_)
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def instance_of(name: str, value, kind, what: str, optional: bool = False):
    """`value` as it is; TypeError naming `name` (`what` it must be) unless it is a `kind` (a
    class or a tuple of them), or None when `optional`."""
    if not (isinstance(value, kind) or optional and value is None):
        raise TypeError(f"{name} must be {what}{' or None' if optional else ''}, got {type(value).__name__}")
    return value


def is_control(ch: str) -> bool:
    """Whether a character would drive a terminal rather than print: a control character (an
    escape, a bell, a newline) or a text-direction override. Other invisible characters (a
    no-break space, a joiner) print as text."""
    return unicodedata.category(ch) == "Cc" or ord(ch) in BIDI


def control_character(text: str, allow: str = "") -> str | None:
    r"""The first character of `text` that `is_control` and not in `allow`, or None.

    >>> control_character("Yatzy\u00a0: r\u00e8gles"), control_character("red\x1b[31m"), control_character("a\nb", "\n")
    (None, '\x1b', None)
    """
    return next((ch for ch in text if is_control(ch) and ch not in allow), None)


def lone_surrogate(text: str) -> str | None:
    r"""The first lone surrogate of `text` (half of a UTF-16 pair, which JSON's \ud800 escapes can
    carry but no file, terminal or cache name can encode), or None.

    >>> lone_surrogate("Yatzy"), lone_surrogate("ok\ud800")
    (None, '\ud800')
    """
    return next((ch for ch in text if "\ud800" <= ch <= "\udfff"), None)
