"""Fitted value iteration: the value of every state approximated by a few weights, V(s) ~ phi(s) . theta.

Approximate dynamic programming (Bertsekas, Powell) replaces the table of values by a function with
far fewer parameters than states. Here the function is linear in a handful of features of the card
(`value_features`: a constant, one "still open" bit per box, and three about the upper bonus), and
the weights are found by *fitted value iteration*: apply the Bellman operator T to the current
approximation at every state with a box open (chapter 5's turn, `engine.turn.turn_values`), fit
the weights to those targets by least squares, repeat. Its greedy policy (`LookAhead` on the fitted
values) is then valued exactly by policy evaluation, so what the approximation costs is known to
the last decimal, not estimated.

>>> from yatzy_core.game.rules import get_rules
>>> yatzy = get_rules("yatzy")
>>> game = yatzy.with_(name="fives, sixes, chance", boxes=yatzy.boxes[4:6] + yatzy.boxes[13:14], upper_bonus=0)
>>> fit = fitted_value_iteration(game)
>>> len(fit.theta), round(float(fit.values[0]), 4)     # 4 weights: a constant and one per box; optimum 51.316
(4, 50.4331)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.turn import turn_values
from ..game.rules import Rules
from ..game.states import StateSpace

__all__ = ["value_features", "FittedValues", "fitted_value_iteration"]

BLOCK = 512   # states per call of the turn engine: bounds its (boxes, rolls, BLOCK) arrays


def value_features(space: StateSpace) -> tuple[np.ndarray, list[str]]:
    """(space.size, F) features of every state and their names: a constant, one bit per box (1
    while it is open) and, with an upper bonus, whether it is won, whether it is still within
    reach, and the points still missing for it as a share of the threshold (0 unless in reach)."""
    rules = space.rules
    mask, upper, _ = space.decode(np.arange(space.size))
    still_open = 1 - ((mask[:, None] >> np.arange(rules.n_boxes)) & 1)
    columns, names = [np.ones(space.size), *still_open.T], ["constant", *(f"{b} open" for b in rules.box_names)]
    if rules.upper_bonus:
        t = rules.upper_bonus_threshold
        room = still_open @ (rules.upper_faces * rules.n_dice)       # the most the open upper boxes add
        won, in_reach = upper >= t, (upper < t) & (upper + room >= t)
        columns += [won, in_reach, np.where(in_reach, (t - upper) / t, 0.0)]
        names += ["bonus won", "bonus in reach", "share of the bonus threshold missing"]
    return np.column_stack(columns).astype(float), names


@dataclass(frozen=True)
class FittedValues:
    """The weights, their features' names, and the fitted value of every state (0 on a full card)."""

    rules: Rules
    theta: np.ndarray
    names: list[str]
    values: np.ndarray


def fitted_value_iteration(rules: Rules, sweeps: int | None = None, features=value_features) -> FittedValues:
    """`sweeps` rounds (default: one per box, enough for a game of B turns to pass its end back
    to the start) of: targets T(V) at every reachable state with a box open, then the weights
    fitted to them by least squares (uniform weight on those states). `features(space)` gives
    the (space.size, F) features and their names (default `value_features`)."""
    space = StateSpace(rules)
    phi, names = features(space)
    states = np.flatnonzero(space.reachable & (space.boxes_used[space.decode(np.arange(space.size))[0]] < rules.n_boxes))
    values, theta = np.zeros(space.size), np.zeros(phi.shape[1])
    for _ in range(rules.n_boxes if sweeps is None else sweeps):
        target = np.concatenate([turn_values(space, values, states[i:i + BLOCK]) for i in range(0, len(states), BLOCK)])
        theta = np.linalg.lstsq(phi[states], target, rcond=None)[0]
        values = np.zeros(space.size)
        values[states] = phi[states] @ theta
    return FittedValues(rules, theta, names, values)
