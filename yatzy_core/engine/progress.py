"""Feedback on long work, from the command line and from Python alike: one line saying what
will be computed and roughly how long, then a tqdm.auto bar (a widget in a notebook, text in a
terminal). One switch silences both: `yatzy_core.progress(False)`, or the environment variable
`YATZY_PROGRESS=0` (read at import; the committed notebooks run with it, so that no bar lands
in a stored output).

>>> rough(3.2), rough(75), rough(600)
('a few seconds', 'about 1 min', 'about 10 min')
>>> was = progress(False); progress_on(True)
False
>>> _ = progress(was); progress_on(True) == was
True
"""
from __future__ import annotations

import os
import sys

from tqdm.auto import tqdm

__all__ = ["QUIET_SECONDS", "progress", "progress_on", "bar", "rough", "announce"]

QUIET_SECONDS = 5.0           # work shorter than this is not announced
_OFF = ("0", "false", "no", "off")
_on = os.environ.get("YATZY_PROGRESS", "1").strip().lower() not in _OFF


def progress(on: bool | None = None) -> bool:
    """Turn the announcements and bars of long work on or off for this process (None: leave
    it); returns the setting before the call. Starts from `YATZY_PROGRESS` (0/off silences)."""
    global _on
    before = _on
    if on is not None:
        _on = bool(on)
    return before


def progress_on(asked) -> bool:
    """Whether a call's `progress` argument shows anything: asked for, and not switched off."""
    return bool(asked) and _on


def bar(total: int, desc: str, asked=True, unit: str = "state") -> tqdm:
    """A tqdm.auto bar of `total` items, shown when `asked` and the switch allow; it vanishes
    when done (leave=False), so that the work's answer is what stays on the screen."""
    return tqdm(total=total, desc=desc, unit=unit, disable=not progress_on(asked), leave=False)


def rough(seconds: float) -> str:
    """A duration as a person would say it before starting."""
    if seconds < 10:
        return "a few seconds"
    if seconds < 60:
        return f"about {round(seconds, -1):.0f} s"
    return f"about {round(seconds / 60):.0f} min"


def announce(what: str, seconds: float) -> None:
    """One line on stderr, `yatzy: WHAT: roughly ... on 2 cores`, when the work is not quick
    (and progress is on)."""
    if seconds >= QUIET_SECONDS and _on:
        tqdm.write(f"yatzy: {what}: {rough(seconds)} on 2 cores (longer on a busy machine)", file=sys.stderr)
