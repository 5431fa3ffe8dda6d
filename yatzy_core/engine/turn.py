"""The turn engine: one turn, for many states at once, worked backwards from the states after it.

Every consumer asks this module (the numpy solver, the exact distribution, the advisor, the
optimal player, the coach and the widgets); the compiled kernel is its tested fast path.

After the last roll a roll is worth its best box: the objective combines the points the box
earns now (`score_box`) with the value of the next state. A keeper K is worth
keep[K] = 1/faces sum_d keep[K + {d}] (the keepers recursion, never a sum over 252 rolls), and a
roll with rerolls left is worth its best sub-keeper. Arrays are laid out (boxes, rolls or
keepers, states, ...): a value per state, or a vector per state (trailing axes), each component
worked on alone, so that its choices are per component too.

Ties: choices worth within TIE = 1e-9 of the best count as equally good, and one rule picks
(`engine.choice`) among them so that nothing hangs on rounding. (Ties are real: on the last turn of
yahtzee-no-bonus with only 3 of a kind open, from 1 1 2 3 6 with one reroll left keeping 6 and
keeping 1 1 are both worth exactly 85/18; the score distributions differ.) Among equally good
keepers the one with the most dice is kept, then the first in `dice.keepers` order (the
smallest dice); among equally good boxes the first in the rules' order is taken.

>>> from yatzy_core.game.rules import get_rules
>>> space = StateSpace(get_rules("yatzy"))
>>> last = space.index((1 << space.n_boxes) - 1 - (1 << space.rules.box_index("chance")), 0)
>>> t = evaluate(space, box_values(space, np.zeros(space.size), np.array([last])))
>>> Fraction(float(t.start[0])).limit_denominator(100)         # only chance open: 70/3
Fraction(70, 3)
>>> roll = space.rules.dice.roll_index[(1, 1, 1, 0, 1, 1)]       # 1 2 3 5 6, two rerolls left
>>> dice_of(space.rules.dice.keepers[t.keep[1][roll, 0]])
(5, 6)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction  # noqa: F401 (the doctest)
from functools import lru_cache
from typing import NamedTuple, Protocol

import numpy as np

from ..game.dice import dice_of  # noqa: F401 (the doctest)
from ..game.checks import instance_of, real_number, whole_number
from ..game.rules import Rules
from ..game.states import StateSpace
from .basics import NEG, TIE
from .choice import choice_rule, combined, preferred_box, preferred_keeper

__all__ = ["TIE", "NEG", "Objective", "MeanLanes", "TargetLanes", "ExpUtility", "MEAN_LANES", "Scored",
           "score_box", "box_values", "scored_boxes", "keeper_values", "best_subkeeper", "Turn", "evaluate",
           "turn_values", "preferred_box", "preferred_keeper"]


# ---- objectives: how the points of a box combine with the value of the next state --------------

def _expand(a, like) -> np.ndarray:
    """`a` with trailing axes of length 1 so that it broadcasts against `like`."""
    a = np.asarray(a)
    return a.reshape(a.shape + (1,) * (np.ndim(like) - a.ndim))


class Objective(Protocol):
    """What a player maximises, the whole backward operator: `terminal` values of a full card,
    and `combine`, the value of earning `points` now and then being in a state worth `later`.

    Three optional parts make the operator the objective's own (`engine.choice`'s `terminal_values`,
    `combined`, `choice_rule` read them, and fall back to the two above): `terminal_states(space)`, a full
    card's value per state (P(upper bonus) is 1 where the upper total reached the threshold);
    `combine_scored(scored, later)`, a combine that sees the scored parts (`Scored`: box points,
    upper bonus, Yahtzee bonus), not only their sum; `choice`, the rule a choice is taken by
    (`choice.Lexicographic`: a primary lane, then a tie-break lane), else the best lane by lane."""

    def terminal(self, size: int) -> np.ndarray: ...

    def combine(self, points: np.ndarray, later: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class MeanLanes:
    """Expected points still to come: V = points + V[next] (one lane; the combine of the
    advisor's best average, `objectives.objective.MaxMean`).

    >>> MeanLanes().combine(np.array([2, 3]), np.array([10.0, 20.0]))
    array([12., 23.])
    """

    def terminal(self, size: int) -> np.ndarray:
        return np.zeros(size)

    def combine(self, points, later):
        return _expand(points, later) + later


@dataclass(frozen=True)
class TargetLanes:
    """One lane per target: P(at least n more points) for n = 0 .. n_points - 1, a vector per state: V[next] shifted
    by the points earned now (a target already met is met for sure).

    >>> TargetLanes(4).combine(np.array([2]), np.array([[1.0, 0.5, 0.25, 0.125]]))
    array([[1. , 1. , 1. , 0.5]])
    """

    n_points: int

    def __post_init__(self):
        whole_number("n_points", self.n_points, 1)

    def terminal(self, size: int) -> np.ndarray:
        out = np.zeros((size, self.n_points))
        out[:, 0] = 1.0
        return out

    def combine(self, points, later):
        need = np.arange(self.n_points) - _expand(points, later)     # (..., n_points)
        need, later = np.broadcast_arrays(np.maximum(need, 0), later)
        return np.take_along_axis(later, need, axis=-1)


@dataclass(frozen=True)
class ExpUtility:
    """Expected utility sign(theta) * exp(theta * points still to come): risk seeking for
    theta > 0, risk averse for theta < 0; V = exp(theta * points) * V[next].

    >>> ExpUtility(-0.5).combine(np.array([2]), np.array([-1.0]))
    array([-0.36787944])
    """

    theta: float   # or an array of thetas, one lane each (targets.certainty_equivalent)

    def __post_init__(self):
        if isinstance(self.theta, np.ndarray) and self.theta.dtype.kind == "f" and np.isfinite(self.theta).all():
            return
        real_number("theta", self.theta)

    def terminal(self, size: int) -> np.ndarray:
        return np.broadcast_to(np.sign(self.theta), (size,) + np.shape(self.theta)).copy()   # a lane per theta

    def combine(self, points, later):
        return np.exp(self.theta * _expand(points, later)) * later

    def certainty(self, utility) -> np.ndarray:
        """The certainty equivalent log(sign(theta) U) / theta, increasing in U (-inf for U = -inf):
        the scale choices are compared on, since utilities e^(theta x) are all within TIE of
        each other once |theta| x is large or |theta| tiny.

        >>> ExpUtility(-0.5).certainty(np.array([-np.exp(-5.0), -np.inf]))
        array([ 10., -inf])
        """
        u = np.asarray(utility, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            ce = np.log(np.sign(self.theta) * u) / self.theta
        return np.where(np.isneginf(u), -np.inf, ce)


MEAN_LANES = MeanLanes()


# ---- scoring a box -------------------------------------------------------------------------------

class Scored(NamedTuple):
    """What writing a roll in a box does: the next state, the points (split as on a score card)
    and whether the box is allowed (open, and not forbidden by the joker rule)."""

    next_state: np.ndarray
    box_points: np.ndarray
    upper_bonus: np.ndarray
    yahtzee_bonus: np.ndarray
    allowed: np.ndarray

    @property
    def bonus(self) -> np.ndarray:
        return self.upper_bonus + self.yahtzee_bonus

    @property
    def points(self) -> np.ndarray:
        """All points earned now: box, upper bonus and Yahtzee bonus."""
        return self.box_points + self.bonus


@lru_cache(maxsize=None)
def _kind_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Per roll: is it n of a kind, and the upper box of its face (-1: none, or not n of a kind)."""
    kind = np.zeros(rules.dice.n_rolls, dtype=bool)
    kind[rules.n_of_a_kind_rolls] = True
    matching = np.full(rules.dice.n_rolls, -1, dtype=np.int64)
    for r in rules.n_of_a_kind_rolls:
        face = int(np.argmax(rules.dice.rolls[r])) + 1
        if face in rules.upper_faces:
            matching[r] = int(np.flatnonzero(rules.upper_faces == face)[0])
    return kind, matching


def _bit(mask, b) -> np.ndarray:
    return (mask >> np.maximum(b, 0)) & 1 == 1


def _joker(rules: Rules, mask, rolls, boxes, open_):
    """Points and legality of an n-of-a-kind roll once the Yahtzee box is filled."""
    _, matching = _kind_tables(rules)
    match = matching[rolls]
    normal, joker = rules.score_table[rolls, boxes], rules.joker_table[rolls, boxes]
    if rules.joker == "none":
        return normal, open_
    if rules.joker == "free":  # Verhoeff: the fixed joker values once the matching upper box is used
        return np.where((match < 0) | _bit(mask, match), joker, normal), open_
    # forced: the matching upper box if open, else an open lower box, else a zero in an upper box
    is_upper = rules.upper_faces[boxes] > 0
    lower = sum(1 << b for b in range(rules.n_boxes) if not rules.upper_faces[b] and b != rules.yahtzee_index)
    match_open = (match >= 0) & ~_bit(mask, match)
    lower_open = (~mask & lower) != 0
    allowed = open_ & np.where(match_open, boxes == match, np.where(lower_open, ~is_upper, True))
    return joker, allowed


def upper_step(rules: Rules, upper, gained):
    """(upper bonus earned now, new capped upper total) after `gained` upper points."""
    if not rules.tracks_upper:
        return np.zeros(np.shape(gained), dtype=np.int64), upper
    threshold = rules.upper_bonus_threshold
    bonus = np.where((upper < threshold) & (upper + gained >= threshold), rules.upper_bonus, 0)
    return bonus, np.minimum(upper + gained, rules.upper_cap)


def score_box(space: StateSpace, states, rolls, boxes) -> Scored:
    """Write each roll in each box from each state (index arrays that broadcast together).

    >>> from yatzy_core.game.rules import get_rules
    >>> space = StateSpace(get_rules("yahtzee"))
    >>> rules, sixes = space.rules, space.rules.dice.roll_index[(0, 0, 0, 0, 0, 5)]
    >>> s = score_box(space, space.index(1 << rules.yahtzee_index, 0, 1), sixes, np.arange(13))
    >>> [rules.box_names[b] for b in np.flatnonzero(s.allowed)], int(s.points[5]), int(s.bonus[5])
    (['sixes'], 130, 100)
    """
    rules = space.rules
    states, rolls, boxes = np.broadcast_arrays(*(np.asarray(a, dtype=np.int64) for a in (states, rolls, boxes)))
    mask, upper, flag = space.decode(states)
    allowed = ~_bit(mask, boxes)
    if rules.forced_order:   # only the lowest open box may be filled (~mask & (mask + 1): its bit)
        allowed = allowed & ((~mask & (mask + 1)) == (1 << boxes))
    box_points = rules.score_table[rolls, boxes]
    yahtzee_bonus = np.zeros(states.shape, dtype=np.int64)
    if rules.tracks_yahtzee_bonus:
        yi = rules.yahtzee_index
        joker = _kind_tables(rules)[0][rolls] & _bit(mask, yi)
        if joker.any():
            points, ok = _joker(rules, mask, rolls, boxes, allowed)
            box_points, allowed = np.where(joker, points, box_points), np.where(joker, ok, allowed)
        yahtzee_bonus = np.where(joker & (flag == 1), rules.yahtzee_bonus, 0)
        flag = np.where((boxes == yi) & (box_points > 0), 1, flag)
    gained = np.where(rules.upper_faces[boxes] > 0, box_points, 0)
    upper_bonus, upper = upper_step(rules, upper, gained)
    return Scored(space.index(mask | (1 << boxes), upper, flag), box_points, upper_bonus,
                  yahtzee_bonus, allowed)


# ---- the turn, backwards -----------------------------------------------------------------------

def box_values(space: StateSpace, values, states: np.ndarray, objective: Objective = MEAN_LANES,
               scored: list[Scored] | None = None) -> np.ndarray:
    """(n_boxes, n_rolls, S, ...) value of scoring each roll in each box, from each state: the
    points now combined with the value of the next state; -inf where the box is not allowed.
    `scored` is `scored_boxes(space, states)`, given when several value tables are read from
    the same states (a saved-roll turn reads one per number of rolls saved).

    Rolls that score the same in a box (and are not n of a kind, which the joker rule treats
    apart) lead to the same points and next state: each box is scored once per such class, and
    every box's classes are valued together (one read of the table, one combine)."""
    rules = space.rules
    states = np.asarray(states, dtype=np.int64)
    if scored is None:
        scored = scored_boxes(space, states)
    elif scored[0].next_state.shape[1] != len(states):
        raise ValueError(f"scored: made for {scored[0].next_state.shape[1]} states, not these {len(states)}")
    if getattr(objective, "combine_scored", None) is None:      # the points in all are enough
        points, next_state, allowed = (np.concatenate([getattr(s, field).reshape(-1) for s in scored])
                                       for field in ("points", "next_state", "allowed"))
        v = objective.combine(points, values[next_state])
    else:                                                         # the scored parts, each apart
        flat = Scored(*(np.concatenate([part.reshape(-1) for part in parts]) for parts in zip(*scored)))
        next_state, allowed = flat.next_state, flat.allowed
        v = combined(objective, flat, values[next_state])
    v = np.where(_expand(allowed, v), v, NEG)
    out = np.empty((rules.n_boxes, rules.dice.n_rolls, len(states)) + v.shape[1:])
    at = 0
    for b, ((_, inverse), s) in enumerate(zip(_roll_classes(rules), scored)):
        n = s.next_state.size
        out[b] = v[at:at + n].reshape(s.next_state.shape + v.shape[1:])[inverse]
        at += n
    return out


def scored_boxes(space: StateSpace, states: np.ndarray) -> list[Scored]:
    """Per box, one roll of each class (`_roll_classes`) written in it from each state: a
    (classes, S) `Scored`, which `box_values` combines with a value table. In Yahtzee the ones
    have 11 classes of the 252 rolls: 0 to 4 ones, and each five of a kind apart (the joker rule).

    >>> from yatzy_core.game.rules import get_rules
    >>> [len(s.points) for s in scored_boxes(StateSpace(get_rules("yahtzee")), [0])]
    [11, 11, 11, 11, 11, 11, 31, 29, 8, 8, 8, 7, 30]
    """
    states = np.asarray(states, dtype=np.int64)
    return [score_box(space, states[None, :], rolls[:, None], b)
            for b, (rolls, _) in enumerate(_roll_classes(space.rules))]


@lru_cache(maxsize=None)
def _roll_classes(rules: Rules) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per box: one roll of each class (same score, or an n of a kind alone) and each roll's class."""
    kind = _kind_tables(rules)[0]
    out = []
    for b in range(rules.n_boxes):
        key = np.where(kind, -1 - np.arange(rules.dice.n_rolls), rules.score_table[:, b])
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        out.append((first, inverse.reshape(-1)))
    return out


def keeper_values(space: StateSpace, roll_values: np.ndarray) -> np.ndarray:
    """(n_keepers, S, ...) expected value of each keeper, from (n_rolls, S, ...) values of the rolls."""
    dice = space.rules.dice
    levels = dice.level_slices
    out = np.empty((dice.n_keepers,) + roll_values.shape[1:])
    out[levels[-1]] = roll_values
    for level in reversed(levels[:-1]):
        children = dice.add_die[level]          # (k_n, faces) keepers with one die more
        acc = out[children[:, 0]]
        for f in range(1, dice.faces):
            acc += out[children[:, f]]
        out[level] = acc * (1.0 / dice.faces)
    return out


def best_subkeeper(space: StateSpace, keep: np.ndarray) -> np.ndarray:
    """(n_rolls, S, ...) value of each roll: its best keeper (keeping all = scoring now)."""
    dice = space.rules.dice
    levels = dice.level_slices
    best = keep.copy()
    for n, level in enumerate(levels[1:], start=1):
        for j in range(n):
            np.maximum(best[level], best[dice.remove_die[level, j]], out=best[level])
    return best[levels[-1]]


@dataclass(frozen=True)
class Turn:
    """One turn from S states, worked backwards. Stage j has j rerolls left after the roll."""

    final: np.ndarray               # (n_boxes, n_rolls, S, ...) value of ending in each box
    rolls: list[np.ndarray]         # [(n_rolls, S, ...)] value of each roll, stage 0, 1, ...
    keepers: list[np.ndarray]       # [(n_keepers, S, ...)] keeper values chosen at stage 1, 2, ...
    start: np.ndarray               # (S, ...) value at the start of the turn
    box: np.ndarray | None          # (n_rolls, S, ...) preferred box of each final roll
    keep: list[np.ndarray] | None   # [(n_rolls, S, ...)] preferred keeper at stage 1, 2, ...


def evaluate(space: StateSpace, final: np.ndarray, choose: bool = True, scale=None, choice=None) -> Turn:
    """The turn whose last roll is worth `final` (box values, or any (n_boxes, n_rolls, ...)
    array of end-of-turn values): every stage's values and, if `choose`, the preferred choices.
    `scale`: an increasing map to the values the tie rule compares (`ExpUtility.certainty`).
    `choice`: the objective's choice rule (`choice_rule`: `Lexicographic`), else lane by lane."""
    if choice is not None:
        return _evaluate_by(space, final, choose, choice)
    m = (lambda a: a) if scale is None else scale
    roll_values = final.max(axis=0)
    rolls, keepers, keep = [roll_values], [], []
    for _ in range(space.rules.rolls_per_turn - 1):
        keepers.append(keeper_values(space, rolls[-1]))
        rolls.append(best_subkeeper(space, keepers[-1]))
        if choose:
            keep.append(preferred_keeper(space, m(keepers[-1]), m(rolls[-1])))
    start = keeper_values(space, rolls[-1])[0]
    return Turn(final, rolls, keepers, start, preferred_box(m(final)) if choose else None,
                keep if choose else None)


def _evaluate_by(space: StateSpace, final: np.ndarray, choose: bool, choice) -> Turn:
    """`evaluate` under a choice rule that picks whole choices (`Lexicographic`): each roll is
    worth its chosen box's or keeper's values, and the choices come with them."""
    roll_values, box = choice.box(final)
    rolls, keepers, keep = [roll_values], [], []
    for _ in range(space.rules.rolls_per_turn - 1):
        keepers.append(keeper_values(space, rolls[-1]))
        values, kept = choice.keeper(space, keepers[-1])
        rolls.append(values)
        keep.append(kept)
    start = keeper_values(space, rolls[-1])[0]
    return Turn(final, rolls, keepers, start, box if choose else None, keep if choose else None)


def turn_values(space: StateSpace, values: np.ndarray, states: np.ndarray,
                objective: Objective = MEAN_LANES) -> np.ndarray:
    """Value at the start of the turn of each state in `states`, given `values` of later states."""
    instance_of("space", space, StateSpace, "a StateSpace (StateSpace(rules))")
    return evaluate(space, box_values(space, values, states, objective), choose=False,
                    choice=choice_rule(objective)).start
