"""Rules of thumb: strategies a person can remember, as ranked lists of readable rules.

A `Rule` is one sentence ("Keep a made full house", "Chance when the dice sum to 22 or more")
with a vectorised test: given a `View` (several card positions times every roll), it returns the
keeper or box it prefers, or -1 where it does not speak. A `DecisionList` is an ordered tuple of
rules: the first rule that speaks decides, and when none does a simple documented fallback
(the `Greedy` player's choice, see `fallback_keep` and `fallback_box`) does. Vetoes ("never
less than 22 in chance") forbid a box unless nothing else is open.

What a rule may look at is what a person sees: the open boxes, the dice, the rerolls left and
one bit of the upper total, whether the card is *on pace* for the upper bonus (at least three
of each face already scored: `on_pace`). So a list decides the same way for every upper total
of one pace class, which is what makes its exact measurement cheap (`thumb_exact`).

>>> rules = get_rules("yahtzee-no-bonus")
>>> rule = box_sum_at_least(rules, "chance", 22)
>>> str(rule), int(rule.choose(View.of(rules, [0], [0], rules.dice.roll_index[(0, 0, 0, 0, 1, 4)], 0))[0, 0])
('Chance when the dice sum to 22 or more', 12)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Callable

import numpy as np

from .advisor import Advice, Position
from .rules import Rules, get_rules
from .strategies import Greedy

__all__ = ["View", "Rule", "DecisionList", "on_pace", "catalogue", "decide", "broken_rule",
           "keep_made", "keep_run", "keep_kind_upper", "keep_kind", "keep_two_pairs",
           "box_made", "box_upper_kind", "box_sum_at_least", "box_dump", "never_below",
           "fallback_keep", "fallback_box"]

KEEP, BOX, VETO = "keep", "box", "veto"


def on_pace(rules: Rules, mask, upper) -> np.ndarray:
    """Whether the upper total is at least three times each used upper box's face (the pace of
    63 in Yahtzee); True when the rules have no upper bonus.

    >>> rules = get_rules("yatzy")
    >>> on_pace(rules, np.array([0b11]), np.array([[8, 9]])).tolist()   # ones and twos used: par 9
    [[False, True]]
    """
    faces = rules.upper_faces
    bits = (np.asarray(mask)[..., None] >> np.arange(rules.n_boxes)) & 1
    par = (bits * 3 * faces).sum(axis=-1)
    return np.asarray(upper) >= np.reshape(par, np.shape(par) + (1,) * (np.ndim(upper) - np.ndim(par)))


@dataclass(frozen=True)
class View:
    """C card positions (open boxes, pace) times R rolls, with the rerolls left: what a rule sees."""

    rules: Rules
    mask: np.ndarray      # (C, 1) used boxes
    pace: np.ndarray      # (C, 1) bool, on pace for the upper bonus
    rolls: np.ndarray     # (R,) roll indices
    rerolls: int

    @classmethod
    def of(cls, rules: Rules, masks, paces, rolls, rerolls: int) -> "View":
        return cls(rules, np.asarray(masks, np.int64).reshape(-1, 1),
                   np.asarray(paces, bool).reshape(-1, 1), np.atleast_1d(np.asarray(rolls, np.int64)),
                   int(rerolls))

    @property
    def counts(self) -> np.ndarray:
        """(R, faces) how many dice show each face."""
        return self.rules.dice.rolls[self.rolls]

    def open(self, box: int) -> np.ndarray:
        """(C, 1) whether the box is still open."""
        return (self.mask >> box) & 1 == 0

    def score(self, box: int) -> np.ndarray:
        """(R,) what each roll scores in the box."""
        return self.rules.score_table[self.rolls, box]

    @cached_property
    def open_scores(self) -> np.ndarray:
        """(C, R, B) points of each roll in each open box, -1 where the box is used."""
        B = self.rules.n_boxes
        opened = ((self.mask[:, :, None] >> np.arange(B)) & 1) == 0                 # (C, 1, B)
        return np.where(opened, self.rules.score_table[self.rolls][None, :, :], -1)

    def speak(self, when: np.ndarray, choice) -> np.ndarray:
        """(C, R) `choice` where `when` holds, -1 elsewhere."""
        when = np.broadcast_to(when, (len(self.mask), len(self.rolls)))
        return np.where(when, np.broadcast_to(choice, when.shape), -1)


@dataclass(frozen=True)
class Rule:
    """One readable rule: its sentence, what it decides (keep, box or veto) and its test."""

    text: str
    kind: str
    choose: Callable[[View], np.ndarray] = field(compare=False, repr=False)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class DecisionList:
    """Ordered rules (the first that speaks decides), vetoes, and the fallback when none speaks."""

    rules: Rules
    items: tuple[Rule, ...] = ()
    vetoes: tuple[Rule, ...] = ()

    def without(self, k: int) -> "DecisionList":
        return DecisionList(self.rules, self.items[:k] + self.items[k + 1:], self.vetoes)

    def with_rule(self, rule: Rule, first: bool = True) -> "DecisionList":
        if rule.kind == VETO:
            return DecisionList(self.rules, self.items, self.vetoes + (rule,))
        items = (rule,) + self.items if first else self.items + (rule,)
        return DecisionList(self.rules, items, self.vetoes)

    def __str__(self) -> str:
        lines = [f"{i + 1:2d}. {r}" for i, r in enumerate(self.items)]
        lines += [f"never: {v}" for v in self.vetoes]
        return "\n".join(lines + ["else: keep the most common face (or a run toward an open "
                                  "straight); score the box with the most points"])


# ---- the fallback: the Greedy player's choices --------------------------------------------------

@lru_cache(maxsize=16)
def _greedy(rules: Rules) -> Greedy:
    return Greedy(rules)


def fallback_keep(view: View) -> np.ndarray:
    """(C, R) Greedy's keeper: the most common face (the higher on ties), or a run of 3-4 toward
    an open straight when it is longer."""
    g = _greedy(view.rules)
    pattern = np.zeros(view.mask.shape, np.int64)
    for i, b in enumerate(g._straights):
        pattern |= view.open(int(b)).astype(np.int64) << i
    return g._keep_table[view.rolls[None, :], pattern]


def _open_scores(view: View, vetoed=None) -> np.ndarray:
    """(C, R, B) points of each roll in each open box, -1 where closed (or vetoed)."""
    return view.open_scores if vetoed is None else np.where(vetoed, -1, view.open_scores)


def fallback_box(view: View, vetoed=None) -> np.ndarray:
    """(C, R) the open box with the most points (the first in card order on ties); vetoed boxes
    only when every open box is vetoed."""
    scores = _open_scores(view, vetoed)
    if vetoed is not None:
        none_left = (scores < 0).all(axis=-1, keepdims=True)
        scores = np.where(none_left, _open_scores(view), scores)
    return np.argmax(scores, axis=-1)


def decide(dl: DecisionList, view: View, memo: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(C, R) the list's choice (a keeper with rerolls left, else a box) and which rule made it
    (its index in `dl.items`, -1 for the fallback). `memo` keeps each rule's answers for views
    seen before (lists that share rules are measured faster)."""
    kind = KEEP if view.rerolls > 0 else BOX
    shape = (len(view.mask), len(view.rolls))
    vetoed = None
    if kind == BOX and dl.vetoes:
        vetoed = np.zeros(shape + (view.rules.n_boxes,), bool)
        for v in dl.vetoes:
            box = v.choose(view)
            c, r = np.nonzero(box >= 0)
            vetoed[c, r, box[c, r]] = True
        everything = (_open_scores(view, vetoed) < 0).all(axis=-1)
        vetoed[everything] = False
    choice = np.full(shape, -1, np.int64)
    which = np.full(shape, -1, np.int64)
    for i, rule in enumerate(dl.items):
        if rule.kind != kind:
            continue
        c = _ask(rule, view, memo)
        if vetoed is not None:
            ci, ri = np.nonzero(c >= 0)
            c[ci[vetoed[ci, ri, c[ci, ri]]], ri[vetoed[ci, ri, c[ci, ri]]]] = -1
        new = (choice < 0) & (c >= 0)
        choice[new], which[new] = c[new], i
    rest = choice < 0
    if rest.any():
        fallback = _FALLBACK_KEEP if kind == KEEP else _FALLBACK_BOX
        choice[rest] = (fallback_box(view, vetoed) if vetoed is not None else _ask(fallback, view, memo))[rest]
    return choice, which


_FALLBACK_KEEP = Rule("keep the most common face (or a run toward an open straight)", KEEP, fallback_keep)
_FALLBACK_BOX = Rule("score the box with the most points", BOX, fallback_box)


def _ask(rule: Rule, view: View, memo: dict | None) -> np.ndarray:
    if memo is None:
        return rule.choose(view)
    key = (rule, view.mask.tobytes(), view.pace.tobytes(), view.rolls.tobytes(), view.rerolls)
    if key not in memo:
        memo[key] = rule.choose(view).astype(np.int16)
    return memo[key].astype(np.int64)


# ---- the catalogue of candidate rules ------------------------------------------------------------

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


# ---- the coach: which rule a choice broke ---------------------------------------------------------

def broken_rule(dl: DecisionList, position: Position, choice: Advice) -> Rule | None:
    """The list's rule that decides at this position, if the choice differs from it (None when
    the choice follows the list or the fallback decides). A box chosen with rerolls left is
    judged as a box choice (the dice kept whole).

    >>> rules = get_rules("yahtzee-no-bonus")
    >>> dl = DecisionList(rules, (box_made(rules, "full_house"),))
    >>> p = Position.make(rules, dice=(2, 2, 3, 3, 3), rolls_left=0)
    >>> str(broken_rule(dl, p, Advice("box", None, "threes", 0.0, 0.0)))
    'Score a made full house'
    """
    rules = position.rules
    view = View.of(rules, [position.mask], on_pace(rules, [position.mask], [[position.upper]])[0],
                   [position.roll], 0 if choice.action == "box" else position.rolls_left)
    decided, which = decide(dl, view)
    if which[0, 0] < 0:
        return None
    if choice.action == "box":
        followed = choice.box is not None and rules.box_index(choice.box) == decided[0, 0]
    else:
        kept = np.zeros(rules.dice.faces, np.int64)
        for d in choice.keep or ():
            kept[d - 1] += 1
        followed = rules.dice.keeper_index[tuple(int(x) for x in kept)] == decided[0, 0]
    return None if followed else dl.items[which[0, 0]]
