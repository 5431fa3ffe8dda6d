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

>>> from yatzy_core.game.rules import get_rules
>>> rules = get_rules("yahtzee-no-bonus")
>>> house = rules.box_index("full_house")
>>> made = Rule("Score a made full house", BOX, lambda v: v.speak(v.open(house) & (v.score(house) > 0), house))
>>> roll = rules.dice.roll_index[(0, 2, 3, 0, 0, 0)]          # 2 2 3 3 3, no rerolls left
>>> choice, which = decide(DecisionList(rules, (made,)), View.of(rules, [0], [True], [roll], 0))
>>> rules.box_names[choice[0, 0]], int(which[0, 0])
('full_house', 0)

The candidate rules are in `thumb_catalogue`; `thumb_exact` measures and learns lists.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Callable, Protocol

import numpy as np

from ..engine.position import Position
from ..game.rules import Rules
from .strategies import Greedy

__all__ = ["View", "Rule", "DecisionList", "on_pace", "decide", "broken_rule", "Choice", "fallback_keep",
           "fallback_box", "KEEP", "BOX", "VETO"]

KEEP, BOX, VETO = "keep", "box", "veto"


class Choice(Protocol):
    """A choice as the coach judges it (the advisor's `Advice` is one): only these are read."""

    action: str                     # "keep" or "box"
    keep: tuple[int, ...] | None    # the dice kept, for "keep"
    box: str | None                 # the box scored, for "box"


def on_pace(rules: Rules, mask, upper) -> np.ndarray:
    """Whether the upper total is at least three times each used upper box's face (the pace of
    63 in Yahtzee); True when the rules have no upper bonus.

    >>> from yatzy_core.game.rules import get_rules
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
    greedy = _greedy(view.rules)
    states, rolls = np.broadcast_arrays(greedy.space.index(view.mask, 0), view.rolls[None, :])
    return greedy.keep(states.ravel(), rolls.ravel(), 1, None).reshape(states.shape)


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
            banned = vetoed[ci, ri, c[ci, ri]]
            c[ci[banned], ri[banned]] = -1
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


# ---- the coach: which rule a choice broke ---------------------------------------------------------

def broken_rule(dl: DecisionList, position: Position, choice: Choice) -> Rule | None:
    """The list's rule that decides at this position, if the choice differs from it (None when
    the choice follows the list or the fallback decides). A box chosen with rerolls left is
    judged as a box choice (the dice kept whole).

    >>> from types import SimpleNamespace
    >>> from yatzy_core.players.thumb_catalogue import box_made
    >>> from yatzy_core.game.rules import get_rules
    >>> rules = get_rules("yahtzee-no-bonus")
    >>> dl = DecisionList(rules, (box_made(rules, "full_house"),))
    >>> p = Position.make(rules, dice=(2, 2, 3, 3, 3), rolls_left=0)
    >>> str(broken_rule(dl, p, SimpleNamespace(action="box", keep=None, box="threes")))
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
