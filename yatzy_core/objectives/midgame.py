"""The final-score distribution from any point of a game, by the same forward pass as from the start.

A game in progress is a turn state (used boxes, upper total, Yahtzee flag) with the points
already scored, either at the start of a turn or inside one (an `Position`: the dice
showing and the rerolls left). The rest of a started turn follows the policy's choices
(`turn.evaluate`, the documented tie rule); from the next turn on `forward.push_layers` carries
the points-so-far rows to the full card.

>>> from yatzy_core.engine.cache import get_solution
>>> solution = get_solution("yahtzee-no-bonus", progress=False)
>>> only_chance = (1 << 13) - 1 - (1 << 12)
>>> d = position_distribution(solution.space.index(only_chance, 0), solution, points=200)
>>> int(np.flatnonzero(d.probabilities)[0]), d.max_score, round(d.mean, 6)   # 200 + chance
(205, 230, 223.333333)
"""
from __future__ import annotations

import numpy as np

from ..engine.position import Position
from ..game.checks import whole_number
from .distribution import ScoreDistribution, final_scores, kind_box
from ..engine.compiled.forward import Rows, push_layers
from ..engine.turn_forward import gather_keepers, spread_keepers
from ..engine.solver import Solution
from ..engine.turn import box_values, evaluate, score_box

__all__ = ["position_distribution", "rows_of"]


def position_distribution(where, solution: Solution, points: int = 0) -> ScoreDistribution:
    """P(final score = x) under optimal play from `where`, a turn state index (start of a turn)
    or an `Position` (inside a turn), with `points` already scored (all boxes and
    bonuses; at least the position's upper total)."""
    space = solution.space
    whole_number("points", points)
    if isinstance(where, Position):
        if where.rules != solution.rules:
            raise ValueError(f"the solution is for rules {solution.rules.name!r}, "
                             f"the position for {where.rules.name!r}")
        if points < where.upper_total:
            raise ValueError(f"points ({points}) cannot be less than the upper total ({where.upper_total})")
        rows = _rest_of_turn(solution, where.state(space), where.roll, where.rolls_left, points)
    elif isinstance(where, (int, np.integer)) and not isinstance(where, bool):
        if not 0 <= where < space.size or not space.reachable[where]:
            raise ValueError(f"state {where} is not a reachable turn state of {solution.rules.name!r}")
        rows = rows_of([where], [points], [1.0], space)
    else:
        raise TypeError(f"where must be a state index or an Position, got {type(where).__name__}")
    if len(rows.states) and space.boxes_used[space.decode(rows.states[0])[0]] < space.n_boxes:
        rows = push_layers(solution, rows, kind_box(solution.rules))[0]
    return ScoreDistribution(solution.rules.name, final_scores(rows))


def _rest_of_turn(solution, state, roll, rolls_left, points) -> Rows:
    """Rows of the next turn's states after playing out this turn from `roll` with
    `rolls_left` rerolls (the policy's keepers, then its box)."""
    space, values = solution.space, solution.values
    states = np.array([state])
    turn = evaluate(space, box_values(space, values, states))
    mass = np.zeros((space.rules.dice.n_rolls, 1))
    mass[roll, 0] = 1.0
    for keeper in reversed(turn.keep[:rolls_left]):
        mass = spread_keepers(space, gather_keepers(space, mass, keeper))
    rolls = np.arange(space.rules.dice.n_rolls)[:, None]
    scored = score_box(space, states[None, :], rolls, turn.box)
    live = mass[:, 0] > 0
    return rows_of(scored.next_state[live, 0], points + scored.points[live, 0], mass[live, 0], space)


def rows_of(states, points, probs, space) -> Rows:
    """Rows of (state, points so far, probability) triples (repeats added up), each state
    replaced by its representative.

    >>> from yatzy_core.game.states import StateSpace
    >>> from yatzy_core.game.rules import get_rules
    >>> r = rows_of([5, 5, 3], [2, 4, 1], [0.25, 0.5, 0.25], StateSpace(get_rules("yahtzee-no-bonus")))
    >>> r.states.tolist(), r.lo.tolist(), r.data.tolist()
    ([3, 5], [1, 2], [0.25, 0.25, 0.0, 0.5])
    """
    states = space.representatives(np.asarray(states, np.int64))
    points, probs = np.asarray(points, np.int64), np.asarray(probs, np.float64)
    unique, inverse = np.unique(states, return_inverse=True)
    lo = np.full(len(unique), np.iinfo(np.int64).max)
    hi = np.full(len(unique), -1)
    np.minimum.at(lo, inverse, points)
    np.maximum.at(hi, inverse, points)
    start = np.r_[0, np.cumsum(hi - lo + 1)]
    data = np.zeros(start[-1])
    np.add.at(data, start[inverse] + points - lo[inverse], probs)
    return Rows(unique, lo, start, data)
