"""Two players, exactly: the value of a whole two-player game by backward induction.

The game: two players alternate whole turns on cards of their own, the first player starting;
each maximises P(win) + 1/2 P(tie). It is a zero-sum stochastic game with perfect information,
so backward induction gives pure optimal strategies and one value. A decision state is (mover's
card a, waiting player's card b, d = mover's points - other's, bonuses included), worth W(a, b, d)
to the mover. The mover's turn ends in card a' with g points; the game then goes on from the
other side, worth 1 - W(b, a', -(d + g)) to the mover, or, when both cards are full, 1, 1/2 or 0
as d + g is positive, zero or negative. Past points live in d only, so the single-player card
states (and their merged upper totals, `StateSpace.representatives`) serve both players, and
for a fixed pair (a, b) every lead d is one lane of the turn engine (`LeadLanes`): a turn is
worked for all leads at once the way a target table works all goals at once.

>>> from yatzy_core.game.ruleset import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> game = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
>>> v = solve_versus(game)
>>> Fraction(v.first).limit_denominator(100), Fraction(v.tie).limit_denominator(100)   # one die each
(Fraction(1, 2), Fraction(1, 6))
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction  # noqa: F401 (the doctest)

import numpy as np

from ..engine.chunked import check_stop
from ..engine.turn import box_values, evaluate, keeper_values
from ..game.checks import whole_number
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .targets import max_total

__all__ = ["LeadLanes", "VersusSolution", "solve_versus", "later_values"]


@dataclass(frozen=True)
class LeadLanes:
    """One lane per lead d = -reach .. reach: the value of ending the turn `points` better off
    is the next state's lane d + points. A lead beyond +reach (reach: the most points a game
    can score) is a sure win, worth `above` (1 for W, 0 for the chance of a tie), one below
    -reach a sure loss, worth 0.

    >>> LeadLanes(2).combine(np.array([1]), np.array([[0.0, 0.1, 0.5, 0.9, 0.95]]))
    array([[0.1 , 0.5 , 0.9 , 0.95, 1.  ]])
    """

    reach: int
    above: float = 1.0

    def __post_init__(self):
        whole_number("reach", self.reach, 0)

    @property
    def width(self) -> int:
        return 2 * self.reach + 1

    def combine(self, points, later):
        points = np.asarray(points)
        lead = np.arange(self.width) + points.reshape(points.shape + (1,) * (later.ndim - points.ndim))
        lead, later = np.broadcast_arrays(lead, later)
        inside = np.take_along_axis(later, np.clip(lead, 0, self.width - 1), axis=-1)
        return np.where(lead >= self.width, self.above, np.where(lead < 0, 0.0, inside))


@dataclass(frozen=True)
class VersusSolution:
    """The first player's chances under optimal play by both. `first` = P(first wins) +
    1/2 P(tie) is the game's value, unique; its split into wins and ties follows the package's
    tie rule (`engine.turn.TIE`: among choices within 1e-9 of the best, the most dice kept, then
    the first keeper, the first box), since equally good choices may tie more or less often."""

    rules: Rules
    first: float
    first_wins: float
    tie: float
    second_wins: float
    values: int          # (card pair, lead) values computed
    seconds: float

    def as_dict(self) -> dict:
        return {"rules": self.rules.name, "first": self.first, "first_wins": self.first_wins,
                "tie": self.tie, "second_wins": self.second_wins, "values": self.values,
                "seconds": self.seconds}


def _levels(n_boxes: int):
    """(mover's boxes used, waiter's) of every decision layer, last turns first: the second
    player moves with one box fewer than the first, the first with as many as the second."""
    for k in range(n_boxes - 1, -1, -1):
        yield k, k + 1
        yield k, k


def _step(lead: np.ndarray) -> np.ndarray:
    """The finished game's value to the mover from the final lead: 1, 1/2 or 0."""
    return np.where(lead > 0, 1.0, np.where(lead == 0, 0.5, 0.0))


def solve_versus(rules: str | Rules, progress: bool = False) -> VersusSolution:
    """Exact two-player values of every decision state, layer by layer, in numpy (small games:
    the work is every reachable card pair times 2 * max_total + 1 leads)."""
    rules = get_rules(rules)
    if rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} save rolls: the two-player solver does not play them")
    start = time.perf_counter()
    space, n = StateSpace(rules), rules.n_boxes
    lanes = LeadLanes(max_total(rules))
    leads = np.arange(lanes.width) - lanes.reach
    distinct = {k: _distinct(space, k) for k in range(n + 1)}
    win: dict = {}    # (ka, kb) -> (W, T) arrays (len(distinct[ka]), len(distinct[kb]), width)
    count = 0
    for ka, kb in _levels(n):
        movers, waiters = distinct[ka], distinct[kb]
        W = np.empty((len(movers), len(waiters), lanes.width))
        T = np.empty_like(W)
        for j, b in enumerate(waiters):
            check_stop()                  # Ctrl-C (or request_stop) between two waiters' turns
            later_w, later_t = _after_turn(space, win, distinct, ka, kb, j, leads)
            W[:, j], T[:, j] = _turn(space, movers, later_w, later_t, lanes)
        win[ka, kb] = W, T
        count += W.size
        win.pop((kb, ka + 1), None)       # the layer this one read is read by no other
    W, T = win[0, 0]
    first, tie = float(W[0, 0, lanes.reach]), float(T[0, 0, lanes.reach])
    wins = first - tie / 2
    return VersusSolution(rules, first, wins, tie, 1.0 - wins - tie, count, time.perf_counter() - start)


def _distinct(space: StateSpace, used: int) -> np.ndarray:
    states = space.layer(used)
    return states[space.representatives(states) == states]


def _after_turn(space, win, distinct, ka, kb, j, leads):
    """(space.size, width) values to the mover (win + 1/2 tie, and tie) of ending the turn in each
    card a' with lead e, against waiter number j of its layer (`later_values`)."""
    ends = space.layer(ka + 1)
    later_w = np.zeros((space.size, len(leads)))
    later_t = np.zeros_like(later_w)
    W, T = (leads, leads) if ka + 1 == space.n_boxes and kb == space.n_boxes else (t[j] for t in win[kb, ka + 1])
    later_w[ends] = later_values(space, distinct, ka, kb, W)
    later_t[ends] = later_values(space, distinct, ka, kb, T, tie=True)
    return later_w, later_t


def later_values(space: StateSpace, distinct: dict, ka: int, kb: int, row, tie: bool = False) -> np.ndarray:
    """(len(space.layer(ka + 1)), width) the value to the mover of ending the turn in each card of
    the next layer with each lead, against one waiter: when both cards are then full, the finished
    game's 1, 1/2 or 0 (with `tie`, the chance of a tie: 1 at lead 0), `row` being the leads; else
    the other side's, `row` holding the waiter's values as mover against each distinct card of the
    next layer, lead e read at -e: 1 - its W, or (with `tie`) its chance of a tie."""
    ends = space.layer(ka + 1)
    if ka + 1 == space.n_boxes and kb == space.n_boxes:
        final = (row == 0).astype(float) if tie else _step(row)
        return np.broadcast_to(final, (len(ends), len(row)))
    flipped = row[np.searchsorted(distinct[ka + 1], space.representatives(ends))][:, ::-1]
    return flipped if tie else 1.0 - flipped


def _turn(space, movers, later_w, later_t, lanes):
    """Every mover's turn for every lead: the values (win + 1/2 tie) by the turn engine, and the
    chance of a tie along the choices the tie rule takes."""
    turn = evaluate(space, box_values(space, later_w, movers, lanes))
    ties = LeadLanes(lanes.reach, above=0.0)         # a sure win is no tie
    tie = np.take_along_axis(box_values(space, later_t, movers, ties), turn.box[None], axis=0)[0]
    for keep in turn.keep:            # stage 1, 2, ...: the keeper chosen with 1, 2, ... rerolls left
        tie = np.take_along_axis(keeper_values(space, tie), keep, axis=0)
    return turn.start, keeper_values(space, tie)[0]
