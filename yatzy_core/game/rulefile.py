"""Rule files: a rule set as TOML text, read into a checked `Rules` value and written back.

The top-level keys are the `Rules` fields (omitted ones keep its defaults); each `[[boxes]]`
table names a box, a scorer from `scoring.CATALOGUE` and that scorer's parameters, plus an
optional `joker_value` and `max_score` (checked against the best roll). A bad file raises one
ValueError naming the file, the field and what is allowed.

>>> rules = loads('''
... name = "two-dice"
... n_dice = 2
... upper_bonus = 0
... [[boxes]]
... name = "doubles"
... scorer = "all_same"
... points = 10
... [[boxes]]
... name = "chance"
... scorer = "chance"
... ''')
>>> rules.box_names, [box.max_score for box in rules.boxes]
(('doubles', 'chance'), [10, 12])
"""
from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from dataclasses import fields
from pathlib import Path

import numpy as np

from .dice import dice_space
from .checks import control_character, instance_of, lone_surrogate
from .ruleset import DESCRIPTION_ALLOWS, JOKERS, Rules
from .scoring import CATALOGUE, Box, make_scorer

__all__ = ["load", "loads", "dumps"]

ORDER = ("name", "description", "n_dice", "faces", "rolls_per_turn", "upper_bonus_threshold",
         "upper_bonus", "yahtzee_box", "yahtzee_bonus", "joker", "forced_order", "saved_rolls")
DEFAULTS = {key: {f.name: f.default for f in fields(Rules)}[key] for key in ORDER}
RANGES = {"n_dice": (1, 6), "faces": (2, 6), "rolls_per_turn": (1, 10),
          "upper_bonus": (0, 10_000), "yahtzee_bonus": (0, 10_000)}
BOX_KEYS = ("name", "scorer", "joker_value", "max_score")
NAME = re.compile(r"[A-Za-z0-9_-]+")   # box names go in CLI lists (--used ones,twos) and JSON


class _Fault(ValueError):
    """A problem in one field; `load` adds the file's name in front."""

    def __init__(self, key: str, problem: str):
        super().__init__(f"{key}: {problem}")


MAX_BYTES = 64 * 1024   # the shipped files are 1.5-2.3 kB; 64 kB leaves room for any comments
MAX_LINE = 1_000        # characters a line; tomllib's memory grows with the square of a dotted
                        # key's parts (a 16 kB `a.a.a... = 1` takes 260 MB, 40 kB 1.7 GB)


def load(path) -> Rules:
    """Read and check a rule file; ValueError naming the file, the field and what is allowed.
    Only a regular file is read, and at most MAX_BYTES of it, so a huge file is refused, not
    parsed, and a FIFO or device (/dev/zero) is not opened."""
    path = Path(instance_of("path", path, (str, os.PathLike), "a rule file's path"))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):     # a FIFO would wait for a writer for ever
            raise ValueError(f"{path}: not a regular file (a folder, device, FIFO or socket); "
                             "name a rule file")
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as err:
        raise ValueError(f"{path}: cannot read the rule file ({err.strerror or err})") from None
    if len(raw) > MAX_BYTES:
        raise ValueError(f"{path}: too large for a rule file (over {MAX_BYTES // 1024} kB; "
                         f"a real one is a few kB)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not UTF-8 text (byte 0x{raw[err.start]:02x} at offset "
                         f"{err.start}); save the rule file as UTF-8") from None
    return loads(text, source=str(path), default_name=path.stem)


def loads(text: str, source: str = "<rules>", default_name: str = "custom") -> Rules:
    """Rule-file text to a checked `Rules` value (errors start with `source`); a UTF-8
    byte-order mark (as some editors save) is skipped."""
    if isinstance(text, (bytes, bytearray)):
        raise TypeError(f"text must be rule-file text (str), got {type(text).__name__}: decode it "
                        "(text.decode('utf-8')) or read the file with load(path)")
    instance_of("text", text, str, "rule-file text (str)")
    text = text.removeprefix("\ufeff")
    _check_size(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{source}: not valid TOML: {err}") from None
    except RecursionError:
        raise ValueError(f"{source}: not a rule file: arrays or tables nested too deep") from None
    try:
        return _rules(data, default_name)
    except _Fault as err:
        raise ValueError(f"{source}: {err}") from None


def _check_size(text: str, source: str) -> None:
    """Refuse text the TOML parser would spend gigabytes on, before it starts."""
    if len(text) > MAX_BYTES:
        raise ValueError(f"{source}: too large for a rule file (over {MAX_BYTES // 1024} kB; "
                         f"a real one is a few kB)")
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE:
            raise ValueError(f"{source}: line {number} is longer than {MAX_LINE:,} characters; "
                             f"split it (a long description can be a \"\"\"multi-line\"\"\" string)")


def _rules(data: dict, default_name: str) -> Rules:
    _known(data, ORDER + ("boxes",), "")
    top = {**DEFAULTS, "name": default_name, **{k: v for k, v in data.items() if k != "boxes"}}
    for key in ("name", "description"):
        _check(isinstance(top[key], str), key, f"must be text, got {top[key]!r}")
        bad = control_character(top[key], DESCRIPTION_ALLOWS if key == "description" else "")
        _check(bad is None, key, f"holds a control character ({bad!r}: an escape code, a bell, a text-direction "
                                 "mark, a line break in a name) that would drive the terminal it is printed on")
        half = lone_surrogate(top[key])
        _check(half is None, key, f"holds a lone surrogate ({half!r}), not text any file or terminal can hold")
    for key, (lo, hi) in RANGES.items():
        _int(top[key], key, lo, hi)
    for key in ("forced_order", "saved_rolls"):
        _check(isinstance(top[key], bool), key, "must be true or false")
    _check(top["joker"] in JOKERS, "joker",
           f"{top['joker']!r} is not allowed; choose one of: {', '.join(JOKERS)}")
    boxes = data.get("boxes")
    _check(isinstance(boxes, list) and boxes and all(isinstance(b, dict) for b in boxes), "boxes",
           "needs at least one [[boxes]] table with a name and a scorer")
    rolls = dice_space(top["n_dice"], top["faces"]).rolls
    built = tuple(_box(b, i, top, rolls) for i, b in enumerate(boxes))
    _check_boxes(built)
    _check_bonuses(top, built)
    fields_ = {k: v for k, v in top.items() if k in DEFAULTS}
    return Rules(boxes=built, **fields_)


def _box(data: dict, i: int, top: dict, rolls: np.ndarray) -> Box:
    """One [[boxes]] table: its scorer from the catalogue, parameters checked against the dice."""
    name = data.get("name")
    _check(isinstance(name, str) and NAME.fullmatch(name), f"boxes[{i}].name",
           f"{name!r} is not allowed; every box needs a name of letters, digits, _ and -")
    where = f"boxes[{i}] ({name})"
    kind = data.get("scorer")
    _check(isinstance(kind, str) and kind in CATALOGUE, f"{where}.scorer",
           f"unknown scorer {kind!r}; choose one of: {', '.join(CATALOGUE)}")
    entry = CATALOGUE[kind]
    _known(data, BOX_KEYS + entry.required + entry.optional, f"{where}.")
    for key in entry.required:
        _check(key in data, f"{where}.{key}", f"scorer {kind!r} needs {', '.join(entry.required)}")
    params = {k: data[k] for k in entry.required + entry.optional if k in data}
    _check_params(params, where, top)
    scorer = make_scorer(kind, **params)
    best = int(np.asarray(scorer(rolls)).max())
    _check(best > 0, f"{where}.scorer",
           f"{kind!r} can never score with {top['n_dice']} dice of {top['faces']} faces")
    if "max_score" in data:
        _int(data["max_score"], f"{where}.max_score", 0, 10**9)
        _check(data["max_score"] == best, f"{where}.max_score",
               f"the best roll scores {best}, not {data['max_score']!r}")
    joker = data.get("joker_value")
    if joker is not None:
        _int(joker, f"{where}.joker_value", 0, 10_000)
    return Box(name, scorer, params.get("face") if kind == "upper" else None, joker, best)


def _check_params(params: dict, where: str, top: dict) -> None:
    n_dice, faces = top["n_dice"], top["faces"]
    limits = {"face": (1, faces), "n": (1, n_dice), "count": (1, 3),
              "length": (1, faces), "points": (1, 10_000)}
    for key, value in params.items():
        if key in limits:
            _int(value, f"{where}.{key}", *limits[key])
    if "faces" in params:
        shown = params["faces"]
        _check(isinstance(shown, list) and shown
               and all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= faces
                       for f in shown) and len(set(shown)) == len(shown), f"{where}.faces",
               f"must list different faces from 1 to {faces}, got {shown!r}")


def _check_boxes(built: tuple[Box, ...]) -> None:
    seen: dict = {}
    for i, box in enumerate(built):
        _check(box.name not in seen, f"boxes[{i}].name",
               f"duplicate box {box.name!r} (also boxes[{seen.get(box.name)}]); names must differ")
        seen[box.name] = i
    faces = [b.face for b in built if b.face is not None]
    for face in set(faces):
        _check(faces.count(face) == 1, "boxes",
               f"face {face} has {faces.count(face)} upper boxes; at most one")


def _check_bonuses(top: dict, built: tuple[Box, ...]) -> None:
    most = sum(b.max_score for b in built if b.face is not None)
    _int(top["upper_bonus_threshold"], "upper_bonus_threshold", 0, 10_000)
    if top["upper_bonus"] > 0:
        _check(most > 0, "upper_bonus", "needs upper boxes (scorer 'upper'); use 0 for no bonus")
        _int(top["upper_bonus_threshold"], "upper_bonus_threshold", 1, most)
    name = top["yahtzee_box"]
    if name is not None:
        _check(isinstance(name, str), "yahtzee_box", f"must be a box name (text), got {name!r}")
        kinds = {b.name: b.spec["scorer"] for b in built}
        _check(kinds.get(name) == "all_same", "yahtzee_box",
               f"{name!r} must name a box with scorer 'all_same'; those are: "
               f"{', '.join(n for n, k in kinds.items() if k == 'all_same') or 'none'}")
    elif top["yahtzee_bonus"] or top["joker"] != "none":
        _check(False, "yahtzee_box", "the Yahtzee bonus and joker rule need a yahtzee_box")
    _check(not (top["forced_order"] and top["joker"] != "none"), "forced_order",
           "forced order needs joker = \"none\": the next box is the only choice")
    _check(not (top["saved_rolls"] and (top["yahtzee_bonus"] or top["joker"] != "none")),
           "saved_rolls", "saved rolls are solved without a Yahtzee bonus or joker: set "
           "yahtzee_bonus = 0 and joker = \"none\"")


def _known(data: dict, allowed, prefix: str) -> None:
    for key in data:
        _check(key in allowed, f"{prefix}{key}", f"unknown field; allowed: {', '.join(allowed)}")


def _int(value, key: str, lo: int, hi: int) -> None:
    _check(isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi, key,
           f"{value!r} is out of range; allowed: a whole number from {lo} to {hi}")


def _check(ok, key: str, problem: str) -> None:
    if not ok:
        raise _Fault(key, problem)


# ---- writing ----------------------------------------------------------------------------------

def dumps(rules: Rules) -> str:
    """Rule-file text for a Rules value whose boxes all use catalogue scorers.

    >>> from yatzy_core.game.rules import get_rules
    >>> print(dumps(get_rules("yatzy")).splitlines()[0])
    name = "yatzy"
    """
    instance_of("rules", rules, Rules, "a Rules value (get_rules(name) gives a built-in one)")
    lines = [f"{key} = {_value(getattr(rules, key))}" for key in DEFAULTS
             if getattr(rules, key) is not None and not (key == "saved_rolls" and not rules.saved_rolls)]
    for box in rules.boxes:
        if box.spec is None:
            raise ValueError(f"box {box.name!r} of rules {rules.name!r} has a scorer outside the "
                             f"catalogue; only catalogue scorers can be written to a file")
        lines += ["", "[[boxes]]", f"name = {_value(box.name)}"]
        lines += [f"{k} = {_value(v)}" for k, v in box.spec.items()]
        if box.joker_value is not None:
            lines.append(f"joker_value = {box.joker_value}")
        lines.append(f"max_score = {box.max_score}")
    return "\n".join(lines) + "\n"


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(v) if isinstance(v, str) else str(int(v))
