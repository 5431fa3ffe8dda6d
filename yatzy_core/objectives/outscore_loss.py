"""What the outscore approximation gives up against exact two-player play: a policy evaluation.

One player (`seat`) plays the approximation (`outscore.Outscore`: at each of its turns, against
the waiting player's card and the lead, the choice its table ranks first, ties by the engine's
tie rule `engine.turn.TIE`); the other plays the exact best reply to that fixed policy. Backward
induction over the same layers as `two_player.solve_versus`, with the approximating player's max
replaced by following its choices (the policy's value, not the best one), gives that player's
P(win) + 1/2 P(tie) exactly; the exact game's value minus it is the loss.

>>> from yatzy_core.game.ruleset import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> game = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=2)
>>> loss = outscore_loss(game)
>>> Fraction(loss.exact).limit_denominator(1000), Fraction(loss.approximate).limit_denominator(1000)
(Fraction(103, 216), Fraction(103, 216))
"""
from __future__ import annotations

import time
from functools import lru_cache
from dataclasses import dataclass
from fractions import Fraction  # noqa: F401 (the doctest)

import numpy as np

from ..engine.chunked import check_stop
from ..engine.solutions import solution_for
from ..engine.turn import TargetLanes, box_values, evaluate, keeper_values
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .outscore import outscore_table
from .targets import max_total
from .two_player import LeadLanes, _after_turn, _distinct, _levels, _turn

__all__ = ["OutscoreLoss", "outscore_loss", "SEATS"]

SEATS = ("first", "second")


@dataclass(frozen=True)
class OutscoreLoss:
    """The approximating player's P(win) + 1/2 P(tie) against an exact best reply (`approximate`,
    with its split), the exact game's value for that seat (`exact`), and the difference."""

    rules: Rules
    seat: str
    exact: float
    approximate: float
    wins: float
    tie: float
    seconds: float

    @property
    def loss(self) -> float:
        return self.exact - self.approximate

    def as_dict(self) -> dict:
        return {"rules": self.rules.name, "seat": self.seat, "exact": self.exact, "approximate": self.approximate,
                "loss": self.loss, "wins": self.wins, "tie": self.tie, "seconds": round(self.seconds, 2)}


def outscore_loss(rules: str | Rules, seat: str = "first", compiled: bool = True) -> OutscoreLoss:
    """Evaluate the approximation played by `seat` ("first" or "second") against exact replies, in
    numpy (small games); compiled=False: its tables by the numpy reference path too."""
    rules = get_rules(rules)
    if seat not in SEATS:
        raise ValueError(f"seat must be one of {', '.join(SEATS)}, got {seat!r}")
    if rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} save rolls: the two-player solver does not play them")
    start = time.perf_counter()
    space, n = StateSpace(rules), rules.n_boxes
    solution = solution_for(rules, None, use_cache=False, progress=False)
    lanes = LeadLanes(max_total(rules))
    leads = np.arange(lanes.width) - lanes.reach
    distinct = {k: _distinct(space, k) for k in range(n + 1)}
    win: dict = {}
    for ka, kb in _levels(n):
        movers, waiters = distinct[ka], distinct[kb]
        W = np.empty((len(movers), len(waiters), lanes.width))
        T = np.empty_like(W)
        approximating = (ka == kb) == (seat == "first")      # the first player moves when both used as many
        for j, b in enumerate(waiters):
            check_stop()
            later_w, later_t = _after_turn(space, win, distinct, ka, kb, j, leads)
            if approximating:
                choice = _approximation(space, movers, int(b), leads, solution, compiled)
                W[:, j], T[:, j] = _follow(space, movers, choice, later_w, later_t, lanes)
            else:
                W[:, j], T[:, j] = _turn(space, movers, later_w, later_t, lanes)
        win[ka, kb] = W, T
        win.pop((kb, ka + 1), None)
    W, T = win[0, 0]
    first, tie = float(W[0, 0, lanes.reach]), float(T[0, 0, lanes.reach])
    exact = _exact_value(rules)
    if seat == "second":
        first, exact = 1.0 - first, 1.0 - exact
    return OutscoreLoss(rules, seat, exact, first, first - tie / 2, tie, time.perf_counter() - start)


@lru_cache(maxsize=2)
def _exact_value(rules: Rules) -> float:
    """The first player's exact value (`two_player.solve_versus`), once for both seats."""
    from .two_player import solve_versus
    return solve_versus(rules).first


def _approximation(space, movers, waiter, leads, solution, compiled) -> np.ndarray:
    """(boxes, rolls, movers, leads) the approximation's values of every end of turn, against the
    waiter's card (its max-mean final-score distribution), lead d read at lane K + 1 - d."""
    table = outscore_table(space.rules, waiter, lead=None, compiled=compiled, solution=solution)
    values = box_values(space, table.values, movers, TargetLanes(table.width))
    return values[..., np.clip(len(table.final) - leads, 0, table.width - 1)]


def _follow(space, movers, choice, later_w, later_t, lanes):
    """The values (win + 1/2 tie) and the tie chances of every mover's turn for every lead when
    each choice is the one `choice` values best (the engine's tie rule among near-equals)."""
    turn = evaluate(space, choice)
    ties = LeadLanes(lanes.reach, above=0.0)
    out = []
    for later, objective in ((later_w, lanes), (later_t, ties)):
        v = np.take_along_axis(box_values(space, later, movers, objective), turn.box[None], axis=0)[0]
        for keep in turn.keep:
            v = np.take_along_axis(keeper_values(space, v), keep, axis=0)
        out.append(keeper_values(space, v)[0])
    return out
