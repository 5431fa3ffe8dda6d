"""A solved rule set's turn-start state values as one compact binary file, for a program without
Python (the course site's "Play and ask" page, `site/play/advisor.js`): `value_table` writes it,
`read_value_table` reads it back and checks it.

The file (format version 1; all integers little-endian):

    bytes 0-7     magic b"YATZYVAL"
    bytes 8-11    uint32 format version (1)
    bytes 12-15   uint32 H: the length of the header
    16 .. 16+H    the header: UTF-8 JSON, padded with spaces so that the values start at a
                  multiple of 4 bytes
    then          `count` float32 values, little-endian, one per state index

The header holds the rules' name, fingerprint (`cache.rules_fingerprint`) and rule file, the
layout, the value type, the count, the SHA-256 (hex) of the value bytes, the optimal expected
score, and the scoring as data (`scoring_data`: every roll's score in every box, the joker
values, the bonuses), so a reader scores a roll without any rule written in its own code.

Layout "dense": value i is the state of index ((mask * n_upper) + upper) * n_flags + flag
(`states.StateSpace.index`, the upper total capped at the bonus threshold), for every index;
states that are not reachable hold 0. A reader's lookup is a multiplication and an addition. The
unreachable zeros cost almost nothing once the file is gzip-compressed (as the site sends it): the
three tables of the site are 5.15 MB gzip-compressed (yahtzee 4.2 MB raw, 1.18 MB compressed;
yahtzee-no-bonus 2.1 / 0.79 MB; yatzy 8.4 / 3.18 MB). Keeping only the reachable states, or only
their representatives (`StateSpace.representatives`), would need the reader to rebuild the
index and saves no compressed bytes (measured: 1.18 MB either way for yahtzee); shuffling the
float bytes would save 4%. float32 holds a value to within 2e-5 points (values below 1,600),
enough for the page's 1e-4 agreement with the package; the 1e-9 ties of the turn engine are not
resolved by it (the page marks options within 1e-4 as ties).

>>> from yatzy_core.game.rules import get_rules
>>> rules = get_rules("yahtzee-no-bonus")
>>> chance = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
>>> from .solver import solve
>>> table = read_value_table(value_table(solve(chance, progress=False)))
>>> table.header["count"], table.values.tolist()           # the start (70/3) and the full card
(2, [23.33333396911621, 0.0])
"""
from __future__ import annotations

import gzip
import hashlib
import json
import struct
from typing import NamedTuple

import numpy as np

from ..game.checks import instance_of
from ..game.rulefile import dumps as rule_file
from ..game.rules import Rules
from ..game.states import StateSpace
from ..version import __version__
from .cache import rules_fingerprint
from .solver import Solution

__all__ = ["MAGIC", "VERSION", "LAYOUT", "ValueTable", "value_table", "read_value_table", "scoring_data",
           "gzipped"]

MAGIC = b"YATZYVAL"
VERSION = 1
LAYOUT = "dense"
VALUE_TYPE = "float32-le"
FORMAT = "yatzy-state-values"
_PREFIX = struct.Struct("<8sII")     # magic, format version, header length


class ValueTable(NamedTuple):
    """A table read back: its header (a dict) and its values (float32, one per state index)."""

    header: dict
    values: np.ndarray


def scoring_data(rules: Rules) -> dict:
    """The rules' scoring as plain data: each roll (its dice) and its score in each box, normal
    and as a joker, the upper faces and the bonuses. Everything a reader needs to score a roll.

    >>> from yatzy_core.game.rules import get_rules
    >>> data = scoring_data(get_rules("yatzy"))
    >>> data["rolls"][0], data["score_table"][0][:7], data["upper_bonus"], data["joker"]
    ([1, 1, 1, 1, 1], [5, 0, 0, 0, 0, 0, 2], 50, 'none')
    """
    dice = rules.dice
    return {"n_dice": rules.n_dice, "faces": rules.faces, "rolls_per_turn": rules.rolls_per_turn,
            "boxes": list(rules.box_names), "upper_faces": [int(f) for f in rules.upper_faces],
            "upper_bonus_threshold": rules.upper_bonus_threshold, "upper_bonus": rules.upper_bonus,
            "upper_cap": rules.upper_cap, "yahtzee_index": rules.yahtzee_index,
            "yahtzee_bonus": rules.yahtzee_bonus, "joker": rules.joker,
            "tracks_yahtzee_bonus": rules.tracks_yahtzee_bonus, "forced_order": rules.forced_order,
            "rolls": [[int(d) for d in np.repeat(np.arange(1, rules.faces + 1), r)] for r in dice.rolls],
            "score_table": rules.score_table.tolist(), "joker_table": rules.joker_table.tolist()}


def _values(solution: Solution) -> np.ndarray:
    """The dense float32 values: every reachable state's, zeros elsewhere (the layout)."""
    space = StateSpace(solution.rules)
    return np.where(space.reachable, solution.values, 0.0).astype("<f4")


def value_table(solution: Solution) -> bytes:
    """The file's bytes for a solved rule set (see the module docstring); ValueError for a game
    with saved rolls, whose turn states carry the saved count (not in this format)."""
    instance_of("solution", solution, Solution, "a Solution (solve or get_solution)")
    rules = solution.rules
    if rules.saved_rolls:
        raise ValueError(f"solution: rules {rules.name!r} save rolls; their values are not exported")
    space = StateSpace(rules)
    values = _values(solution)
    data = values.tobytes()
    header = {"format": FORMAT, "version": VERSION, "rules": rules.name, "fingerprint": rules_fingerprint(rules),
              "description": rules.description, "package_version": __version__, "layout": LAYOUT,
              "index": "((mask * n_upper) + upper) * n_flags + flag",
              "n_boxes": rules.n_boxes, "n_upper": space.n_upper, "n_flags": space.n_flags,
              "value_type": VALUE_TYPE, "count": int(values.size),
              "sha256": hashlib.sha256(data).hexdigest(),
              "expected_score": solution.expected_score, "scoring": scoring_data(rules),
              "rule_file": _rule_file(rules)}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(_PREFIX.size + len(text)) % 4)
    return _PREFIX.pack(MAGIC, VERSION, len(text)) + text + data


def _rule_file(rules: Rules) -> str | None:
    """The rules as rule-file TOML (what a game log records), or None for a hand-made scorer."""
    try:
        return rule_file(rules)
    except ValueError:
        return None


def gzipped(data: bytes) -> bytes:
    """`data` gzip-compressed at the highest level, with no time stamp (the same bytes each build)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def read_value_table(data: bytes) -> ValueTable:
    """A table from the file's bytes (gzip-compressed or not), checked: magic, format version,
    header, count and SHA-256 of the values; ValueError naming `data` for anything else."""
    instance_of("data", data, (bytes, bytearray, memoryview), "the file's bytes")
    data = bytes(data)
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as err:
            raise ValueError(f"data: damaged gzip stream ({err})") from None
    if len(data) < _PREFIX.size or data[:8] != MAGIC:
        raise ValueError(f"data: not a state-value table (no {MAGIC.decode()} magic)")
    _, version, length = _PREFIX.unpack_from(data)
    if version != VERSION:
        raise ValueError(f"data: format version {version}, this reader reads version {VERSION}")
    try:
        header = json.loads(data[_PREFIX.size:_PREFIX.size + length])
        count, sha = int(header["count"]), str(header["sha256"])
    except (ValueError, KeyError, TypeError) as err:
        raise ValueError(f"data: damaged header ({type(err).__name__}: {err})"[:200]) from None
    if header.get("layout") != LAYOUT or header.get("value_type") != VALUE_TYPE:
        raise ValueError(f"data: layout {header.get('layout')!r} of {header.get('value_type')!r}, "
                         f"this reader reads {LAYOUT!r} of {VALUE_TYPE!r}")
    body = data[_PREFIX.size + length:]
    if len(body) != 4 * count:
        raise ValueError(f"data: {len(body):,} bytes of values, the header says {count:,} float32")
    if hashlib.sha256(body).hexdigest() != sha:
        raise ValueError("data: the values do not match their SHA-256 (a damaged file)")
    return ValueTable(header, np.frombuffer(body, dtype="<f4"))
