"""The measured records kept beside the package in results/ (a benchmark's readings, written once
by a long run): read by name and checked against their sha256, so a chapter shows a stored
number only if it is the one the run wrote.

>>> stored_result("targets")["yahtzee"]["p_at_least"]["300"]["playing_for_T"] > 0.1
True
>>> stored_result("no-such-record")   # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: stored_result: no record 'no-such-record' in .../results (known: endgame, frontier, ...)
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

__all__ = ["RESULTS", "stored_result"]

RESULTS = Path(__file__).resolve().parents[2] / "results"   # the checkout's results/ folder


def stored_result(name: str, folder: Path = RESULTS):
    """The readings of record `name` (results/NAME.json); a record without readings (a plan of
    counts) comes whole. ValueError naming the record when it is missing, not JSON, or its
    readings do not match the sha256 stored with them, or have none (benchmarks/results_file.py
    writes it)."""
    folder = Path(folder)
    known = sorted(p.stem for p in folder.glob("*.json") if p.is_file())
    if name not in known:     # by the listing: a path, a NUL or a name too long for the system is just unknown
        raise ValueError(f"stored_result: no record {name!r:.60} in {folder} (known: {', '.join(known)})")
    path = folder / f"{name}.json"
    try:
        record = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"stored_result: record {name!r} ({path}) is not JSON: {exc}") from None
    if not isinstance(record, dict) or "readings" not in record:
        return record
    readings = record["readings"]
    digest = hashlib.sha256(json.dumps(readings, sort_keys=True).encode()).hexdigest()
    if record.get("sha256") != digest:      # a missing sha256 too: readings are always written with one
        raise ValueError(f"stored_result: record {name!r} ({path}) is damaged: its readings do not match its sha256")
    return readings
