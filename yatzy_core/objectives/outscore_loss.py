"""What the outscore approximation gives up against exact two-player play: a policy evaluation.

One player (`seat`) plays the approximation (`outscore.Outscore`: at each of its turns, against
the waiting player's card and the lead, the choice its table ranks first); the other plays the
exact best reply to that fixed policy. Choices within `engine.basics.TIE` of the best are ordered
as advice orders them (`TIES`, "advice": the best average first, the max-mean turn's values, then
the engine's preference), so the loss stated is that of the policy the advice plays; "engine":
the engine's rule alone (most dice kept, the first box). Backward
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
from ..engine.choice import LEXICOGRAPHIC
from ..engine.turn import TargetLanes, best_subkeeper, box_values, evaluate, keeper_values
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .outscore import outscore_table
from .targets import max_total
from .two_player import LeadLanes, _after_turn, _distinct, _levels, _turn

__all__ = ["OutscoreLoss", "outscore_loss", "SEATS", "TIES"]

SEATS = ("first", "second")
TIES = ("advice", "engine")


@dataclass(frozen=True)
class OutscoreLoss:
    """The approximating player's P(win) + 1/2 P(tie) against an exact best reply (`approximate`,
    with its split), the exact game's value for that seat (`exact`), and the difference."""

    rules: Rules
    seat: str
    ties: str
    exact: float
    approximate: float
    wins: float
    tie: float
    seconds: float

    @property
    def loss(self) -> float:
        return self.exact - self.approximate

    def as_dict(self) -> dict:
        return {"rules": self.rules.name, "seat": self.seat, "ties": self.ties, "exact": self.exact,
                "approximate": self.approximate, "loss": self.loss, "wins": self.wins, "tie": self.tie, "seconds": round(self.seconds, 2)}


def outscore_loss(rules: str | Rules, seat: str = "first", compiled: bool = True, ties: str = "advice") -> OutscoreLoss:
    """Evaluate the approximation played by `seat` ("first" or "second") against exact replies, in
    numpy (small games), its ties broken as `ties` says (`TIES`); compiled=False: its tables by
    the numpy reference path too."""
    rules = get_rules(rules)
    if seat not in SEATS:
        raise ValueError(f"seat must be one of {', '.join(SEATS)}, got {seat!r}")
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}, got {ties!r}")
    if rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} save rolls: the two-player solver does not play them")
    start = time.perf_counter()
    space, n = StateSpace(rules), rules.n_boxes
    solution = solution_for(rules, None, use_cache=False, progress=False)
    lanes = LeadLanes(max_total(rules))
    leads = np.arange(lanes.width) - lanes.reach
    distinct = {k: _distinct(space, k) for k in range(n + 1)}
    mean = {k: box_values(space, solution.values, distinct[k]) for k in range(n)}   # max-mean's, the tie-break
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
                picked = _choices(space, choice, mean[ka] if ties == "advice" else None)
                W[:, j], T[:, j] = _follow(space, movers, picked, later_w, later_t, lanes)
            else:
                W[:, j], T[:, j] = _turn(space, movers, later_w, later_t, lanes)
        win[ka, kb] = W, T
        win.pop((kb, ka + 1), None)
    W, T = win[0, 0]
    first, tie = float(W[0, 0, lanes.reach]), float(T[0, 0, lanes.reach])
    exact = _exact_value(rules)
    if seat == "second":
        first, exact = 1.0 - first, 1.0 - exact
    return OutscoreLoss(rules, seat, ties, exact, first, first - tie / 2, tie, time.perf_counter() - start)


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


def _choices(space, choice, mean_final) -> tuple[np.ndarray, list]:
    """(box, keepers) chosen in every roll of every mover's turn for every lead, valued by
    `choice` (boxes, rolls, movers, leads): the best; of those within TIE, the best max-mean value
    (`mean_final`: (boxes, rolls, movers), points now plus max-mean's value after; its keepers
    max-mean's own), as `advisor.choices` ranks them; then the engine's preference. mean_final
    None: the engine's rule alone (`evaluate`)."""
    if mean_final is None:
        turn = evaluate(space, choice)
        return turn.box, turn.keep
    mean = evaluate(space, mean_final, choose=False)
    paired = lambda primary, tie: np.stack(np.broadcast_arrays(primary, tie[..., None]), axis=-1)   # noqa: E731
    _, box = LEXICOGRAPHIC.box(paired(choice, mean_final))
    rolls, keep = choice.max(axis=0), []
    for stage in range(space.rules.rolls_per_turn - 1):
        keepers = keeper_values(space, rolls)
        keep.append(LEXICOGRAPHIC.keeper(space, paired(keepers, mean.keepers[stage]))[1])
        rolls = best_subkeeper(space, keepers)
    return box, keep


def _follow(space, movers, picked, later_w, later_t, lanes):
    """The values (win + 1/2 tie) and the tie chances of every mover's turn for every lead when
    each choice is the one `picked` ((box, keepers): `_choices`)."""
    box, keeps = picked
    ties = LeadLanes(lanes.reach, above=0.0)
    out = []
    for later, objective in ((later_w, lanes), (later_t, ties)):
        v = np.take_along_axis(box_values(space, later, movers, objective), box[None], axis=0)[0]
        for keep in keeps:
            v = np.take_along_axis(keeper_values(space, v), keep, axis=0)
        out.append(keeper_values(space, v)[0])
    return out
