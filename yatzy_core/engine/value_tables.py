"""A solved rule set's turn-start state values as one compact binary file, for a program without
Python (the course site's "Play and ask" page: `site/play/tablefile.js` reads it, `advisor.js`
advises from it): `value_table` writes it, `read_value_table` reads it back and checks it.

The file (format version 2; all integers little-endian):

    bytes 0-7     magic b"YATZYVAL"
    bytes 8-11    uint32 format version (2)
    bytes 12-15   uint32 H: the length of the header
    bytes 16-47   the SHA-256 of everything after it (the header's bytes and the values)
    48 .. 48+H    the header: UTF-8 JSON, padded with spaces so that the values start at a
                  multiple of 4 bytes
    then          `count` float32 values, little-endian, one per state index

The header holds the rules' name, fingerprint (`cache.rules_fingerprint`) and rule file, the
layout, the value type, the shape (n_boxes, n_upper, n_flags and their product, count), the
optimal expected score, and the scoring as data (`scoring_data`: every roll's score in every box,
the joker values, the bonuses), so a reader scores a roll without any rule written in its own
code. The checksum covers the header's bytes as written, not only the values: a changed score
or bonus changes the answers as surely as a changed value (format 1 checked the values only).

A reader trusts nothing before it has checked it: every header field is bounded by what the
reader supports and the shape fields must agree with each other and with the scoring before any
work, and a gzip-compressed file is inflated only as far as the header promises (a small file
that inflates to gigabytes is refused after the promised size, not read into memory).

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
import math
import struct
import zlib
from typing import NamedTuple

import numpy as np

from ..game.checks import instance_of
from ..game.dice import dice_space
from ..game.rulefile import dumps as rule_file
from ..game.rules import Rules
from ..game.states import StateSpace
from ..version import __version__
from .cache import rules_fingerprint
from .solver import Solution

__all__ = ["MAGIC", "VERSION", "LAYOUT", "ValueTable", "value_table", "read_value_table", "checked_header",
           "scoring_data", "gzipped"]

MAGIC = b"YATZYVAL"
VERSION = 2
LAYOUT = "dense"
VALUE_TYPE = "float32-le"
FORMAT = "yatzy-state-values"
_PREFIX = struct.Struct("<8sII32s")  # magic, format version, header length, SHA-256 of the rest
MAX_HEADER = 1 << 23                 # bytes: the header of 6 dice of 6 faces on 20 boxes is below 1 MB
MAX_VALUES = 1 << 28                 # float32 values (1 GiB): 20 boxes x 64 upper totals x 2 flags is 2**27
MAX_BOXES, MAX_UPPER = 20, 10_001    # the package's card (ruleset.MAX_BOXES) and upper totals


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
            "rolls": _rolls(dice),
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
              "expected_score": solution.expected_score, "scoring": scoring_data(rules),
              "rule_file": _rule_file(rules)}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(_PREFIX.size + len(text)) % 4)
    return _PREFIX.pack(MAGIC, VERSION, len(text), hashlib.sha256(text + data).digest()) + text + data


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
    """A table from the file's bytes (gzip-compressed or not), checked before it is trusted: magic,
    format version, the header's fields (bounded, agreeing with each other), the size (inflated no
    further than the header promises) and the SHA-256 of header and values; ValueError naming
    `data` for anything else."""
    instance_of("data", data, (bytes, bytearray, memoryview), "the file's bytes")
    stream = _Stream(bytes(data))
    prefix = stream.take(_PREFIX.size)
    if len(prefix) < _PREFIX.size or prefix[:8] != MAGIC:
        raise ValueError(f"data: not a state-value table (no {MAGIC.decode()} magic)")
    _, version, length, digest = _PREFIX.unpack(prefix)
    if version != VERSION:
        raise ValueError(f"data: format version {version}, this reader reads version {VERSION} "
                         "(export the table again with this package: yatzy export --what values)")
    if length > MAX_HEADER:
        raise ValueError(f"data: a header of {length:,} bytes; this reader reads up to {MAX_HEADER:,}")
    text = stream.take(length)
    header = _header(text, length)
    count = checked_header(header)
    body = stream.take(4 * count)
    if len(body) != 4 * count:
        raise ValueError(f"data: {len(body):,} bytes of values, the header says {count:,} float32")
    if not stream.at_end():
        raise ValueError(f"data: more bytes than the header's {count:,} float32 values (a damaged file)")
    if hashlib.sha256(text + body).digest() != digest:
        raise ValueError("data: the header and values do not match their SHA-256 (a damaged or changed file)")
    return ValueTable(header, np.frombuffer(body, dtype="<f4"))


class _Stream:
    """The file's bytes in order, a gzip stream inflated only as far as they are asked for."""

    def __init__(self, data: bytes):
        self.data, self.at = data, 0     # plain bytes: the next one's offset
        self.inflate = zlib.decompressobj(wbits=31) if data[:2] == b"\x1f\x8b" else None

    def take(self, n: int) -> bytes:
        """The next n bytes (fewer at the end)."""
        if self.inflate is None:
            out = self.data[self.at:self.at + n]
            self.at += len(out)
            return out
        parts, want = [], n
        try:
            while want > 0 and not self.inflate.eof:
                part = self.inflate.decompress(self.data, want)
                self.data = self.inflate.unconsumed_tail      # what is still compressed
                if not part:
                    break
                parts.append(part)
                want -= len(part)
        except zlib.error as err:
            raise ValueError(f"data: damaged gzip stream ({err})") from None
        return b"".join(parts)

    def at_end(self) -> bool:
        """Whether nothing follows; ValueError for a gzip stream cut short."""
        if self.take(1):
            return False
        if self.inflate is not None and not self.inflate.eof:
            raise ValueError("data: damaged gzip stream (cut short)")
        return self.inflate is None or not self.inflate.unused_data


def _header(text: bytes, length: int) -> dict:
    """The header's JSON object; ValueError for anything else (deep nesting and huge numbers included)."""
    if len(text) != length:
        raise ValueError(f"data: the header is cut short ({len(text):,} of {length:,} bytes)")
    try:
        header = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"data: damaged header ({type(err).__name__}: {err})"[:200]) from None
    if not isinstance(header, dict):
        raise ValueError(f"data: damaged header (a JSON {type(header).__name__}, not an object)")
    return header


def _whole(header: dict, key: str, lo: int, hi: int) -> int:
    value = header.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"data: header field {key!r} must be a whole number {lo}..{hi:,}, got {str(value)[:40]}")
    return value


def checked_header(header: dict) -> int:
    """The number of values a header promises, once every field that shapes the table or scores
    a roll is bounded and agrees with the others; ValueError naming the field otherwise.

    >>> checked_header({"format": FORMAT, "layout": LAYOUT, "value_type": VALUE_TYPE, "rules": "yahtzee",
    ...                 "n_boxes": 13, "n_upper": 64, "n_flags": 2, "count": 5})
    Traceback (most recent call last):
    ValueError: data: header count 5 is not 2**n_boxes * n_upper * n_flags = 1,048,576
    """
    if header.get("format") != FORMAT or header.get("layout") != LAYOUT or header.get("value_type") != VALUE_TYPE:
        raise ValueError(f"data: {str(header.get('format'))[:40]!r} layout {str(header.get('layout'))[:20]!r} of "
                         f"{str(header.get('value_type'))[:20]!r}, this reader reads {FORMAT!r} {LAYOUT!r} of {VALUE_TYPE!r}")
    if not isinstance(header.get("rules"), str) or not isinstance(header.get("rule_file"), (str, type(None))):
        raise ValueError("data: header fields 'rules' (a name) and 'rule_file' (text or null) are damaged")
    n_boxes, n_upper = _whole(header, "n_boxes", 1, MAX_BOXES), _whole(header, "n_upper", 1, MAX_UPPER)
    n_flags, count = _whole(header, "n_flags", 1, 2), _whole(header, "count", 1, MAX_VALUES)
    if count != (1 << n_boxes) * n_upper * n_flags:
        raise ValueError(f"data: header count {count:,} is not 2**n_boxes * n_upper * n_flags "
                         f"= {(1 << n_boxes) * n_upper * n_flags:,}")
    _checked_scoring(header.get("scoring"), n_boxes, n_upper, n_flags)
    expected = header.get("expected_score")
    if isinstance(expected, bool) or not isinstance(expected, (int, float)) or not math.isfinite(expected):
        raise ValueError(f"data: header field 'expected_score' must be a finite number, got {str(expected)[:40]}")
    return count


def _checked_scoring(scoring, n_boxes: int, n_upper: int, n_flags: int) -> None:
    """The scoring's fields bounded and agreeing with the shape; ValueError naming the field."""
    if not isinstance(scoring, dict):
        raise ValueError("data: the header has no 'scoring' object (the rules as data)")
    n_dice, faces = _whole(scoring, "n_dice", 1, 6), _whole(scoring, "faces", 2, 12)
    _whole(scoring, "rolls_per_turn", 1, 10)
    threshold = _whole(scoring, "upper_bonus_threshold", 0, MAX_UPPER - 1)
    cap = _whole(scoring, "upper_cap", 0, MAX_UPPER - 1)
    _whole(scoring, "upper_bonus", 0, 10_000)
    yahtzee = _whole(scoring, "yahtzee_index", -1, n_boxes - 1)
    _whole(scoring, "yahtzee_bonus", 0, 10_000)
    tracks = scoring.get("tracks_yahtzee_bonus")
    if scoring.get("joker") not in ("none", "free", "forced") or not isinstance(tracks, bool) \
            or not isinstance(scoring.get("forced_order"), bool):
        raise ValueError("data: scoring fields 'joker', 'tracks_yahtzee_bonus', 'forced_order' are "
                         "'none'|'free'|'forced', true|false, true|false")
    if n_upper != cap + 1 or cap not in (0, threshold) or n_flags != 1 + tracks or (tracks and yahtzee < 0):
        raise ValueError(f"data: the shape (n_upper {n_upper}, n_flags {n_flags}) disagrees with the "
                         f"scoring (upper_cap {cap}, tracks_yahtzee_bonus {tracks}, yahtzee_index {yahtzee})")
    dice = dice_space(n_dice, faces)
    n_rolls = len(dice.rolls)
    boxes, upper = scoring.get("boxes"), scoring.get("upper_faces")
    if not (isinstance(boxes, list) and len(boxes) == n_boxes and all(isinstance(b, str) for b in boxes)
            and isinstance(upper, list) and len(upper) == n_boxes
            and all(isinstance(f, int) and not isinstance(f, bool) and 0 <= f <= faces for f in upper)):
        raise ValueError(f"data: scoring 'boxes' and 'upper_faces' must be {n_boxes} names and faces (n_boxes)")
    for key in ("rolls", "score_table", "joker_table"):
        rows, width = scoring.get(key), n_dice if key == "rolls" else n_boxes
        if not (isinstance(rows, list) and len(rows) == n_rolls
                and all(isinstance(r, list) and len(r) == width for r in rows)
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 1_000_000 for r in rows for x in r)):
            raise ValueError(f"data: scoring {key!r} must be {n_rolls} rows of {width} whole numbers")
    if scoring["rolls"] != _rolls(dice):
        raise ValueError(f"data: scoring 'rolls' are not the {n_rolls} rolls of {n_dice} dice in this reader's order")


def _rolls(dice) -> list[list[int]]:
    """Every roll's dice, smallest first, in the package's roll order (what scoring_data writes)."""
    return [[int(d) for d in np.repeat(np.arange(1, dice.faces + 1), r)] for r in dice.rolls]
