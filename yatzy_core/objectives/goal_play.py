"""Exact final-score distributions of goal-seeking play: a forward pass over (state, points so far).

Max-mean play has the same choice whatever the points so far, so `distribution.py` pushes one
distribution per state. A target policy does not: its choice depends on the points still needed,
so each state carries its points-so-far distribution and every points value is played with its
own need (the turn engine's choices for that component of `TargetLanes`). A risk policy's choice
depends on the state only. For small games (a few thousand states): numpy, one turn per state.

>>> rules = get_rules("yahtzee-no-bonus")
>>> small = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
>>> t = solve_targets(small, 30)
>>> d = target_distribution(t, 24)
>>> round(float(d[24:].sum()), 4), round(t.p_at_least(24), 4)   # P(chance >= 24) playing for it
(0.5431, 0.5431)
"""
from __future__ import annotations

import numpy as np

from ..game.checks import whole_number
from ..engine.turn_forward import final_roll_probabilities
from ..game.rules import get_rules  # noqa: F401 (the doctest)
from ..game.states import StateSpace
from .targets import Targets, check_theta, solve_targets  # noqa: F401 (solve_targets: the doctest)
from ..engine.turn import TargetLanes, ExpUtility, box_values, evaluate, score_box

__all__ = ["target_distribution", "risk_distribution", "tie_table"]


def _most(space: StateSpace) -> int:
    rules = space.rules
    return int(np.maximum(rules.score_table, rules.joker_table).max(axis=0).sum()
               + rules.upper_bonus + rules.yahtzee_bonus * rules.n_boxes)


def _forward(space: StateSpace, turn_of) -> np.ndarray:
    """Push P(state, points so far) from the empty card to the full one; `turn_of(state,
    points)` gives (keepers per stage, boxes) as (n_rolls, P) arrays for those points values."""
    most = _most(space)
    mass = {int(space.index(0, 0, 0)): np.eye(1, most + 1)[0]}
    final = np.zeros(most + 1)
    rolls = np.arange(space.rules.dice.n_rolls)[:, None]
    for k in range(space.n_boxes):
        for state in sorted(s for s in mass if space.boxes_used[space.decode(s)[0]] == k):
            m = mass.pop(state)
            pts = np.flatnonzero(m)
            keep, box = turn_of(state, pts)
            prob = final_roll_probabilities(space, keep, len(pts)) * m[pts]
            s = score_box(space, state, rolls, box)
            at = pts[None, :] + s.points
            for to in np.unique(s.next_state):
                here = s.next_state == to
                target = final if k == space.n_boxes - 1 else mass.setdefault(int(to), np.zeros(most + 1))
                target += np.bincount(at[here], weights=prob[here], minlength=most + 1)
    return final


def target_distribution(targets: Targets, goal: int) -> np.ndarray:
    """P(final total = x) when every turn is played to reach `goal` (the target policy)."""
    space = targets.space
    cache = {}

    def turn_of(state, pts):
        if state not in cache:
            t = evaluate(space, box_values(space, targets, np.array([state]), TargetLanes(targets.n_max + 1)))
            cache.clear()
            cache[state] = t
        t = cache[state]
        need = np.clip(goal - pts, 0, targets.n_max)
        return [k[:, 0, need] for k in t.keep], t.box[:, 0, need]
    return _forward(space, turn_of)


def risk_distribution(rules, theta: float, utilities: np.ndarray) -> np.ndarray:
    """P(final total = x) under the policy that maximises E[exp(theta * points)], its ties
    within TIE on the certainty-equivalent scale (`risk_advice`'s order)."""
    space = StateSpace(get_rules(rules))
    objective = ExpUtility(check_theta(theta, space.rules))

    def turn_of(state, pts):
        t = evaluate(space, box_values(space, utilities, np.array([state]), objective),
                     scale=objective.certainty)
        return [np.repeat(k, len(pts), axis=1) for k in t.keep], np.repeat(t.box, len(pts), axis=1)
    return _forward(space, turn_of)


def tie_table(targets: Targets, batch: int = 16, dtype=np.float64, progress=None) -> np.ndarray:
    """(space.size, n_max + 1) W(s, n) = P(gaining at least n - 1 more points) when every turn
    is played for n (the target policy of `targets`, the engine's tie rule). Playing to beat a
    known score S is playing for n = S + 1: it wins with V(start, S + 1) and ties with
    W(start, S + 1) - V(start, S + 1). One backward pass along the policy in numpy, `batch`
    distinct states at a time: seconds for small games, an hour for a whole one (then
    `dtype=np.float32` halves the memory; `progress(used)` is called after each layer).

    >>> rules = get_rules("yahtzee-no-bonus")
    >>> small = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
    >>> t = solve_targets(small, 30)
    >>> w = tie_table(t)[0]
    >>> round(float(w[24] - t.vector(0)[24]), 4)   # P(chance = 23) playing for 24
    0.0968
    """
    whole_number("batch", batch, lo=1)
    space, n_max = targets.space, targets.n_max
    lanes = np.arange(n_max + 1)
    W = np.zeros((space.size, n_max + 1), dtype=dtype)
    rolls = np.arange(space.rules.dice.n_rolls)[:, None]
    for used in range(space.n_boxes, -1, -1):
        if progress is not None:
            progress(used)
        layer = space.layer(used)
        if used == space.n_boxes:
            W[layer] = lanes <= 1
            continue
        reps = space.representatives(layer)   # states that cannot differ share their row
        distinct = np.unique(reps)
        for chunk in np.array_split(distinct, -(-len(distinct) // batch)):
            W[chunk] = _tie_rows(space, targets, chunk, lanes, rolls, W)
        W[layer] = W[reps]
    return W


def _tie_rows(space, targets, states, lanes, rolls, W) -> np.ndarray:
    """W of `states` (one layer, their next states done): the engine's choices for every n,
    the final-roll probabilities they give, and W of where each final roll goes, shifted."""
    n_max, S, L = targets.n_max, len(states), len(lanes)
    t = evaluate(space, box_values(space, targets, states, TargetLanes(n_max + 1)))
    keep = [k.reshape(len(k), S * L) for k in t.keep]
    prob = final_roll_probabilities(space, keep, S * L)
    s = score_box(space, np.repeat(states, L)[None, :], rolls, t.box.reshape(len(t.box), S * L))
    m = np.tile(lanes, S)[None, :] - s.points
    w = (prob * np.where(m <= 1, 1.0, W[s.next_state, np.clip(m, 0, n_max)])).sum(axis=0)
    return w.reshape(S, L)
