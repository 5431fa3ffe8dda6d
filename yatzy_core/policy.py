"""The optimal policy run forwards: how one turn ends, for a block of states, with no sampling.

The solver runs a turn backwards (values of rolls, then of keepers); here the same stage values
choose the keeper of every roll and the box of every final roll, and probability mass is pushed
forwards through those choices: P(first roll) = P(roll | empty keeper); at each reroll the mass of
a roll moves to its chosen keeper and the keeper's mass spreads over rolls die by die (the
transpose of `turn.keeper_values`); after the last roll each roll goes to its chosen box.

Ties: a keeper replaces a larger keeper only when strictly better (`turn.best_subkeeper`), and
among boxes of equal value the first in the rules' order is taken (numpy's argmax). Exact ties
between choices with different outcomes are rare, but they decide which of two equally good
score distributions is reported.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .states import StateSpace
from .turn import best_subkeeper, box_values, keeper_values


@dataclass(frozen=True)
class TurnOutcomes:
    """How a turn ends from each of S states: (n_rolls, S) arrays, one column per state."""

    prob: np.ndarray         # P(final roll | state) under the optimal policy
    box: np.ndarray          # box the final roll is scored in
    points: np.ndarray       # all points it earns now: box + upper bonus + Yahtzee bonus
    upper_bonus: np.ndarray  # the part of `points` that is the upper bonus
    yahtzee_bonus: np.ndarray  # the part of `points` that is a Yahtzee bonus
    next_state: np.ndarray   # state index at the start of the next turn

    @property
    def box_points(self) -> np.ndarray:
        """The points written in the chosen box itself."""
        return self.points - self.upper_bonus - self.yahtzee_bonus


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


def choices(space: StateSpace, values: np.ndarray, states: np.ndarray):
    """The optimal choices of one turn: (box_values, [keeper choice with 1, 2, ... rerolls left]).

    The stage values are computed exactly as `turn.turn_values` computes them.
    """
    boxes = box_values(space, values, states)
    roll_values = boxes.max(axis=0)
    keepers = []
    for _ in range(space.rules.rolls_per_turn - 1):
        roll_values, arg = best_subkeeper(space, keeper_values(space, roll_values), argmax=True)
        keepers.append(arg)
    return boxes, keepers


def first_argmax(boxes: np.ndarray) -> np.ndarray:
    """Index of the best box for each (roll, state); the first one on ties (argmax over axis 0,
    done box by box because numpy's strided argmax is slow here)."""
    best = boxes[0].copy()
    arg = np.zeros(best.shape, dtype=np.int64)
    for b in range(1, len(boxes)):
        better = boxes[b] > best
        arg[better] = b
        np.maximum(best, boxes[b], out=best)
    return arg


def final_roll_probabilities(space: StateSpace, keepers: list[np.ndarray], S: int) -> np.ndarray:
    """(n_rolls, S) P(final roll) following the chosen keepers from the first roll on."""
    dice = space.rules.dice
    prob = np.repeat(dice.transition[0][:, None], S, axis=1)
    for keeper in reversed(keepers):  # the first roll has the most rerolls left
        prob = spread_keepers(space, gather_keepers(space, prob, keeper))
    return prob


def turn_outcomes(space: StateSpace, values: np.ndarray, states: np.ndarray) -> TurnOutcomes:
    """Where the optimal policy ends the turn from each state: final roll, box, points, next state."""
    rules = space.rules
    states = np.asarray(states, dtype=np.int64)
    S = len(states)
    boxes, keepers = choices(space, values, states)
    box = first_argmax(boxes)
    prob = final_roll_probabilities(space, keepers, S)
    mask, upper, flag = (np.broadcast_to(a, box.shape) for a in space.decode(states))
    rolls = np.broadcast_to(np.arange(rules.dice.n_rolls)[:, None], box.shape)
    score = rules.score_table[rolls, box]
    is_upper = rules.upper_faces[box] > 0
    new_upper = upper
    upper_bonus = np.zeros(box.shape, dtype=np.int64)
    if rules.tracks_upper:
        new_upper = np.where(is_upper, np.minimum(upper + score, rules.upper_cap), upper)
        crossed = is_upper & (upper < rules.upper_bonus_threshold) & (upper + score >= rules.upper_bonus_threshold)
        upper_bonus = np.where(crossed, rules.upper_bonus, 0)
    new_flag = flag
    yahtzee_bonus = np.zeros(box.shape, dtype=np.int64)
    if rules.tracks_yahtzee_bonus:
        yi = rules.yahtzee_index
        new_flag = np.where((box == yi) & (score > 0), 1, flag)
        kind = np.zeros(rules.dice.n_rolls, dtype=bool)
        kind[rules.n_of_a_kind_rolls] = True
        extra = kind[rolls] & ((mask >> yi) & 1 == 1) & (flag == 1)
        yahtzee_bonus = np.where(extra, rules.yahtzee_bonus, 0)
    next_state = space.index(mask | (1 << box), new_upper, new_flag)
    # the points are what box_values added to the next state's value: read them back exactly
    gained = np.take_along_axis(boxes, box[None], axis=0)[0] - values[next_state]
    points = np.rint(gained).astype(np.int64)
    if not np.allclose(gained, points, atol=1e-6):
        raise ValueError("box values and next states disagree: the solution does not fit these rules")
    return TurnOutcomes(prob, box, points, upper_bonus, yahtzee_bonus, next_state)
