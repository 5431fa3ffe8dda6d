"""The optimal policy run forwards: how one turn ends, for a block of states, with no sampling.

The turn engine (`turn.evaluate`) runs a turn backwards and picks, under its one tie rule, the
keeper of every roll and the box of every final roll; here probability mass is pushed forwards
through those choices: P(first roll) = P(roll | empty keeper); at each reroll the mass of a roll
moves to its chosen keeper and the keeper's mass spreads over rolls die by die (the transpose of
`turn.keeper_values`); after the last roll each roll goes to its chosen box. The expected score
does not depend on the tie rule; the spread of scores does, a little (`second_moments`).

>>> from yatzy_core.game.rules import get_rules
>>> space = StateSpace(get_rules("yatzy"))
>>> last = space.index((1 << space.n_boxes) - 1 - (1 << space.rules.box_index("yatzy")), 0)
>>> o = turn_outcomes(space, np.zeros(space.size), np.array([last]))
>>> round(float(o.prob[o.points[:, 0] == 50].sum()) * 6 ** 10)   # P(yatzy in 3 rolls) * 6**10
2783176
"""
from __future__ import annotations

import numpy as np

from ..game.states import StateSpace
from .basics import TIE, TurnOutcomes
from .compiled.turn_ties import extreme_good
from .turn import box_values, evaluate, keeper_values, score_box

__all__ = ["TIE", "TurnOutcomes", "spread_keepers", "gather_keepers", "final_roll_probabilities",
           "turn_outcomes", "second_moments"]

BLOCK = 1024  # states per turn computation in `second_moments`


def spread_keepers(space: StateSpace, mass: np.ndarray) -> np.ndarray:
    """(n_rolls, S) roll probabilities after rerolling from (n_keepers, S) keeper masses.

    Each keeper passes 1/faces of its mass to each keeper with one die more, smallest first;
    a full keeper (keeping every die) stays the roll it is.
    """
    dice = space.rules.dice
    levels = dice.level_slices
    m = mass.copy()
    for level in levels[:-1]:
        share = m[level] * (1.0 / dice.faces)
        for f in range(dice.faces):
            m[dice.add_die[level, f]] += share  # k -> k + {f} is one-to-one: no index repeats
    return m[levels[-1]]


def gather_keepers(space: StateSpace, prob: np.ndarray, keeper: np.ndarray) -> np.ndarray:
    """(n_keepers, S) mass on each keeper when each roll's mass moves to its chosen keeper."""
    n_keepers = space.rules.dice.n_keepers
    S = prob.shape[1]
    flat = keeper * S + np.arange(S)
    return np.bincount(flat.ravel(), weights=prob.ravel(), minlength=n_keepers * S).reshape(n_keepers, S)


def final_roll_probabilities(space: StateSpace, keepers: list[np.ndarray], S: int) -> np.ndarray:
    """(n_rolls, S) P(final roll) following the chosen keepers from the first roll on."""
    dice = space.rules.dice
    prob = np.repeat(dice.transition[0][:, None], S, axis=1)
    for keeper in reversed(keepers):  # the first roll has the most rerolls left
        prob = spread_keepers(space, gather_keepers(space, prob, keeper))
    return prob


def turn_outcomes(space: StateSpace, values: np.ndarray, states: np.ndarray) -> TurnOutcomes:
    """Where the optimal policy ends the turn from each state: final roll, box, points, next state."""
    states = np.asarray(states, dtype=np.int64)
    turn = evaluate(space, box_values(space, values, states))
    prob = final_roll_probabilities(space, turn.keep, len(states))
    rolls = np.arange(space.rules.dice.n_rolls)[:, None]
    s = score_box(space, states[None, :], rolls, turn.box)
    return TurnOutcomes(prob, turn.box, s.points, s.upper_bonus, s.yahtzee_bonus, s.next_state)


# ---- second moments: the spread of optimal play, and how much the tie rule matters -------------

def second_moments(solution, ties: str = "rule", progress: bool = False) -> np.ndarray:
    """E[(points still to come)^2] of every reachable state, by backward recursion:
    E2[s] = sum over final rolls of P(roll) * (p^2 + 2 p V[next] + E2[next]), p = points now.

    ties="rule" follows this module's tie rule (so it must match the forward distribution);
    "min"/"max" break every tie towards the smaller/larger second moment, which bounds the
    spread of any optimal policy (the mean is the same for all of them).
    """
    from tqdm.auto import tqdm

    if ties not in ("rule", "min", "max"):
        raise ValueError(f"ties must be 'rule', 'min' or 'max', got {ties!r}")
    if not isinstance(getattr(solution, "space", None), StateSpace):    # (Solution: a later layer)
        raise TypeError(f"solution must be a Solution (solve(rules)), got {type(solution).__name__}")
    space, values = solution.space, solution.values
    second = np.zeros(space.size)
    layers = [space.layer(k) for k in range(space.n_boxes)]
    with tqdm(total=sum(map(len, layers)), desc=f"second moments {solution.rules.name}",
              unit="state", disable=not progress, leave=False) as bar:
        for layer in reversed(layers):
            for i in range(0, len(layer), BLOCK):
                block = layer[i:i + BLOCK]
                if ties == "rule":
                    o = turn_outcomes(space, values, block)
                    p, nxt = o.points, o.next_state
                    second[block] = (o.prob * (p * p + 2 * p * values[nxt] + second[nxt])).sum(axis=0)
                else:
                    second[block] = _extreme_turn(space, values, second, block, 1.0 if ties == "max" else -1.0)
                bar.update(len(block))
    return second


def _extreme_turn(space, values, second, states, sign):
    """Start-of-turn second moments when every tie goes to the larger (sign +1) or smaller (-1)."""
    turn = evaluate(space, box_values(space, values, states), choose=False)
    best = turn.rolls[0]
    e2 = np.full(best.shape, -np.inf)
    rolls = np.arange(space.rules.dice.n_rolls)[:, None]
    with np.errstate(invalid="ignore"):
        for b in range(len(turn.final)):
            s = score_box(space, states[None, :], rolls, b)
            p, nxt = s.points, s.next_state
            m = sign * (p * p + 2 * p * values[nxt] + second[nxt])
            tied = turn.final[b] >= best - TIE
            e2[tied] = np.maximum(e2[tied], m[tied])
    e2 *= sign
    k, starts = space.rules.dice.preferred_pairs
    for keep, roll_values in zip(turn.keepers, turn.rolls[1:]):
        keep2 = keeper_values(space, e2)
        e2 = np.empty(roll_values.shape)
        extreme_good(keep, roll_values, keep2, k, starts, TIE, sign, e2)
    return keeper_values(space, e2)[0]

