"""The catalogue of candidate rules of thumb: readable sentences with vectorised tests.

Each builder returns a `thumb.Rule` for one rule set: keep or score a made pattern (the lower
boxes worth one fixed number), keep runs toward an open straight, keep n of a face (for its upper
box, or for the of-a-kind boxes), keep two pairs, write n of a face in its upper box, score a box
above a sum, dump a poor roll, and the veto "never less than t in a box". `catalogue` lists them
all for a 5-dice rule set; `thumb_exact.learn` picks from it.

>>> rules = get_rules("yahtzee-no-bonus")
>>> rule = box_sum_at_least(rules, "chance", 22)
>>> str(rule), int(rule.choose(View.of(rules, [0], [0], rules.dice.roll_index[(0, 0, 0, 0, 1, 4)], 0))[0, 0])
('Chance when the dice sum to 22 or more', 12)
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..game.dice import dice_of  # noqa: F401 (the doctests)
from ..game.rules import Rules, get_rules
from .thumb import BOX, KEEP, VETO, Rule, View

__all__ = ["catalogue", "keep_made", "keep_run", "keep_kind_upper", "keep_kind", "keep_two_pairs",
           "box_made", "box_upper_kind", "box_sum_at_least", "box_dump", "never_below"]


def _spec(rules: Rules, b: int) -> str:
    return (rules.boxes[b].spec or {}).get("scorer", "")


def _name(rules: Rules, b: int) -> str:
    return rules.box_names[b].replace("_", " ")


def _fixed(rules: Rules) -> list[int]:
    """Lower boxes that score one fixed number or nothing (full house, straights, Yahtzee)."""
    out = []
    for b in range(rules.n_boxes):
        positive = np.unique(rules.score_table[:, b][rules.score_table[:, b] > 0])
        if not rules.boxes[b].is_upper and len(positive) == 1:
            out.append(b)
    return out


def _straights(rules: Rules) -> list[int]:
    return [b for b in range(rules.n_boxes) if _spec(rules, b) in ("run", "straight")]


def _kind_boxes(rules: Rules) -> list[int]:
    return [b for b in range(rules.n_boxes) if _spec(rules, b) in ("of_a_kind", "of_a_kind_total", "all_same")]


@lru_cache(maxsize=16)
def _face_keepers(rules: Rules) -> np.ndarray:
    """(n_rolls, faces) keeper of the dice of each face in each roll."""
    dice = rules.dice
    out = np.zeros((dice.n_rolls, dice.faces), np.int64)
    for r, counts in enumerate(dice.rolls):
        for f in range(dice.faces):
            keep = np.zeros(dice.faces, np.int64)
            keep[f] = counts[f]
            out[r, f] = dice.keeper_index[tuple(int(x) for x in keep)]
    return out


@lru_cache(maxsize=64)
def _pattern_keepers(rules: Rules, what: str, n: int) -> np.ndarray:
    """(n_rolls,) keeper per roll, -1 if none: the longest run of n or more faces ("run") or
    two pairs of the two highest paired faces ("pairs")."""
    dice = rules.dice
    out = np.full(dice.n_rolls, -1, np.int64)
    for r, counts in enumerate(dice.rolls):
        keep = np.zeros(dice.faces, np.int64)
        if what == "run":   # the longest run of n or more faces, the highest of equal ones
            runs = [(e - s, s) for s in range(dice.faces) for e in range(s + n, dice.faces + 1)
                    if (counts[s:e] > 0).all()]
            if runs:
                length, start = max(runs)
                keep[start:start + length] = 1
        else:
            paired = np.flatnonzero(counts >= 2)[-2:]
            if len(paired) == 2:
                keep[paired] = 2
        if keep.any():
            out[r] = dice.keeper_index[tuple(int(x) for x in keep)]
    return out


@lru_cache(maxsize=16)
def _upper_box(rules: Rules) -> np.ndarray:
    """(faces,) the upper box of each face (0-based), -1 if none."""
    return np.array([int(np.flatnonzero(rules.upper_faces == f + 1)[0]) if (rules.upper_faces == f + 1).any()
                     else -1 for f in range(rules.dice.faces)])


@lru_cache(maxsize=64)
def _face_table(rules: Rules, n: int, need_upper_open: bool) -> np.ndarray:
    """(2**faces, n_rolls) the face (0-based) with the most dice (the higher on ties) among faces
    with at least n dice (and their upper box open, if asked; row = which faces' boxes are
    open, as bits), -1 if none."""
    counts, faces = rules.dice.rolls, rules.dice.faces
    key = np.where(counts >= n, counts * 16 + np.arange(faces), -1)              # (R, F)
    opened = (np.arange(1 << faces)[:, None] >> np.arange(faces)) & 1 == 1       # (P, F)
    if need_upper_open:
        opened = opened & (_upper_box(rules) >= 0)
        key = np.where(opened[:, None, :], key[None], -1)
    else:
        key = np.broadcast_to(key[None], (1 << faces,) + key.shape)
    return np.where(key.max(axis=-1) >= 0, key.argmax(axis=-1), -1)


def _best_face(view: View, n: int, need_upper_open: bool) -> tuple[np.ndarray, np.ndarray]:
    """(C, R) the face `_face_table` picks for each position and roll, and whether there is one."""
    pattern = np.zeros(view.mask.shape, np.int64)
    for f, b in enumerate(_upper_box(view.rules)):
        if b >= 0:
            pattern |= view.open(int(b)).astype(np.int64) << f
    face = _face_table(view.rules, n, need_upper_open)[pattern, view.rolls[None, :]]
    return np.maximum(face, 0), face >= 0


def keep_made(rules: Rules, box: str) -> Rule:
    b = rules.box_index(box)
    return Rule(f"Keep a made {_name(rules, b)}", KEEP,
                lambda v: v.speak(v.open(b) & (v.score(b) > 0), v.rules.dice.roll_offset + v.rolls))


def keep_run(rules: Rules, n: int) -> Rule:
    """Keep the longest run of n or more faces while a straight box is open (a made straight
    is kept whole).

    >>> rules = get_rules("yahtzee-no-bonus")
    >>> straight = View.of(rules, [0], [True], [rules.dice.roll_index[(1, 1, 1, 1, 1, 0)]], 2)
    >>> dice_of(rules.dice.keepers[keep_run(rules, 4).choose(straight)[0, 0]])
    (1, 2, 3, 4, 5)
    """
    straights = _straights(rules)

    def choose(v):
        any_open = np.logical_or.reduce([v.open(b) for b in straights]) if straights else False
        keeper = _pattern_keepers(v.rules, "run", n)[v.rolls]
        return v.speak(any_open & (keeper >= 0), keeper)
    return Rule(f"Keep {n} or more in a row while a straight is open", KEEP, choose)


def keep_kind_upper(rules: Rules, n: int, behind: bool = False) -> Rule:
    def choose(v):
        face, ok = _best_face(v, n, True)
        if behind:
            ok = ok & ~v.pace
        return v.speak(ok, _face_keepers(v.rules)[v.rolls[None, :], face])
    when = " when behind pace for the bonus" if behind else ""
    what = "the most common face whose upper box is open" if n == 1 else f"{n}+ of a face whose upper box is open"
    return Rule(f"Keep {what}{when}", KEEP, choose)


def keep_kind(rules: Rules, n: int) -> Rule:
    kinds = _kind_boxes(rules)

    def choose(v):
        face, ok = _best_face(v, n, False)
        any_open = np.logical_or.reduce([v.open(b) for b in kinds]) if kinds else False
        return v.speak(ok & any_open, _face_keepers(v.rules)[v.rolls[None, :], face])
    return Rule(f"Keep {n}+ of a kind while an of-a-kind box is open", KEEP, choose)


def keep_two_pairs(rules: Rules, box: str) -> Rule:
    b = rules.box_index(box)

    def choose(v):
        keeper = _pattern_keepers(v.rules, "pairs", 2)[v.rolls]
        return v.speak(v.open(b) & (keeper >= 0), keeper)
    return Rule(f"Keep two pairs while {_name(rules, b)} is open", KEEP, choose)


def box_made(rules: Rules, box: str) -> Rule:
    b = rules.box_index(box)
    return Rule(f"Score a made {_name(rules, b)}", BOX, lambda v: v.speak(v.open(b) & (v.score(b) > 0), b))


def box_upper_kind(rules: Rules, n: int) -> Rule:
    def choose(v):
        face, ok = _best_face(v, n, True)
        return v.speak(ok, _upper_box(v.rules)[face])
    return Rule(f"Write {n}+ of a face in its upper box", BOX, choose)


def box_sum_at_least(rules: Rules, box: str, t: int) -> Rule:
    b = rules.box_index(box)
    return Rule(f"{_name(rules, b).capitalize()} when the dice sum to {t} or more", BOX,
                lambda v: v.speak(v.open(b) & (v.score(b) >= t), b))


def box_dump(rules: Rules, box: str, t: int, save: str | None = None) -> Rule:
    b = rules.box_index(box)
    drop = [b] + ([rules.box_index(save)] if save else [])

    def choose(v):
        others = np.delete(v.open_scores, drop, axis=-1)
        return v.speak(v.open(b) & (others.max(axis=-1, initial=-1) < t), b)
    but = f" but {save}" if save else " other"
    return Rule(f"Dump a roll in {_name(rules, b)} when no{but} open box gives {t}", BOX, choose)


def never_below(rules: Rules, box: str, t: int) -> Rule:
    b = rules.box_index(box)
    return Rule(f"less than {t} in {_name(rules, b)}", VETO, lambda v: v.speak(v.score(b) < t, b))


def catalogue(rules: str | Rules) -> tuple[Rule, ...]:
    """Every candidate rule for a 5-dice rule set: made patterns, runs, n of a kind, sums, dumps."""
    rules = get_rules(rules)
    names = rules.box_names
    out = [keep_made(rules, names[b]) for b in _fixed(rules)]
    out += [box_made(rules, names[b]) for b in _fixed(rules)]
    if _straights(rules):
        out += [keep_run(rules, 4), keep_run(rules, 3)]
    out += [keep_kind_upper(rules, n, behind) for n in (1, 2, 3) for behind in (False, True)]
    out += [keep_kind(rules, n) for n in (2, 3)]
    out += [keep_two_pairs(rules, names[b]) for b in range(rules.n_boxes) if _spec(rules, b) == "full_house"]
    out += [box_upper_kind(rules, n) for n in (2, 3, 4)]
    for b in range(rules.n_boxes):
        if _spec(rules, b) in ("of_a_kind", "of_a_kind_total", "chance", "pairs"):
            out += [box_sum_at_least(rules, names[b], t) for t in (10, 15, 20, 22, 25)]
    for b in [0, 1, rules.yahtzee_index]:
        if 0 <= b < rules.n_boxes:
            out += [box_dump(rules, names[b], t) for t in (5, 10, 15)]
    return tuple(out)
