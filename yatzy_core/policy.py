"""The optimal policy run forwards: how one turn ends, for a block of states, with no sampling.

The solver runs a turn backwards (values of rolls, then of keepers); here the same stage values
choose the keeper of every roll and the box of every final roll, and probability mass is pushed
forwards through those choices: P(first roll) = P(roll | empty keeper); at each reroll the mass of
a roll moves to its chosen keeper and the keeper's mass spreads over rolls die by die (the
transpose of `turn.keeper_values`); after the last roll each roll goes to its chosen box.

Ties: choices worth within TIE = 1e-9 points of the best count as equally good, and the rule
below picks one, so that the result does not hang on rounding. (Ties are real: on the last turn
of yahtzee-no-bonus with only 3 of a kind open, from 1 1 2 3 6 with one reroll left keeping 6
and keeping 1 1 are both worth exactly 85/18; the score distributions differ.) Among equally good
keepers the one with the most dice is kept, then the first in `dice.keepers` order (the smallest
dice); among equally good boxes the first in the rules' order is taken. The expected score does
not depend on the rule; the spread of scores does, a little.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .states import StateSpace
from .turn import best_subkeeper, box_values, keeper_values

TIE = 1e-9    # choices this close to the best (in points) are equally good; see the module docstring
BLOCK = 1024  # states per turn computation in `second_moments`


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
        keep = keeper_values(space, roll_values)
        roll_values = best_subkeeper(space, keep)
        keepers.append(preferred_keeper(space, keep, roll_values))
    return boxes, keepers


def preferred_keeper(space: StateSpace, keep: np.ndarray, roll_values: np.ndarray) -> np.ndarray:
    """(n_rolls, S) keeper index chosen in each roll: the preferred one of those within TIE of
    the roll's best value (most dice, then first in order)."""
    k, starts = space.rules.dice.preferred_pairs
    out = np.empty(roll_values.shape, dtype=np.int64)
    _first_good(keep, roll_values, k, starts, TIE, out)
    return out


@njit(cache=True)  # serial: blocks already run on several threads
def _first_good(keep, roll_values, k, starts, tie, out):
    n_rolls, S = roll_values.shape
    for r in range(n_rolls):
        out[r, :] = -1
        for pos in range(starts[r], starts[r + 1]):
            kk = k[pos]
            for s in range(S):
                if out[r, s] < 0 and keep[kk, s] >= roll_values[r, s] - tie:
                    out[r, s] = kk


def first_best(boxes: np.ndarray) -> np.ndarray:
    """Index of the first box within TIE of the best, for each (roll, state)."""
    best = boxes.max(axis=0)
    arg = np.full(best.shape, len(boxes) - 1, dtype=np.int64)
    for b in range(len(boxes) - 2, -1, -1):
        arg[boxes[b] >= best - TIE] = b
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
    states = np.asarray(states, dtype=np.int64)
    boxes, keepers = choices(space, values, states)
    box = first_best(boxes)
    prob = final_roll_probabilities(space, keepers, len(states))
    next_state, upper_bonus, yahtzee_bonus = after_box(space, states, box)
    points = points_scored(boxes, box, values, next_state)
    return TurnOutcomes(prob, box, points, upper_bonus, yahtzee_bonus, next_state)


def after_box(space: StateSpace, states: np.ndarray, box: np.ndarray):
    """(next state, upper bonus now, Yahtzee bonus now) of scoring each roll in `box`: (n_rolls,
    S) arrays, for S states; the box must be open (and allowed) for the result to mean anything."""
    rules = space.rules
    mask, upper, flag = (np.broadcast_to(a, box.shape) for a in space.decode(states))
    rolls = np.broadcast_to(np.arange(rules.dice.n_rolls)[:, None], box.shape)
    score = rules.score_table.ravel()[rolls * rules.n_boxes + box]
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
    return space.index(mask | (1 << box), new_upper, new_flag), upper_bonus, yahtzee_bonus


def points_scored(boxes, box, values, next_state) -> np.ndarray:
    """The points of scoring in `box`: what `turn.box_values` added to the next state's value,
    read back exactly (they are whole numbers)."""
    gained = np.take_along_axis(boxes, box[None], axis=0)[0] - values[next_state]
    points = np.rint(gained).astype(np.int64)
    if np.abs(gained - points).max(initial=0.0) > 1e-6:
        raise ValueError("box values and next states disagree: the solution does not fit these rules")
    return points


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
    boxes = box_values(space, values, states)
    best = boxes.max(axis=0)
    e2 = np.full(best.shape, -np.inf)
    with np.errstate(invalid="ignore"):
        for b in range(len(boxes)):
            box = np.full(best.shape, b)
            nxt = after_box(space, states, box)[0]
            p = boxes[b] - values[nxt]
            m = sign * (p * p + 2 * p * values[nxt] + second[nxt])
            tied = boxes[b] >= best - TIE
            e2[tied] = np.maximum(e2[tied], m[tied])
    e2 *= sign
    roll_values = best
    k, starts = space.rules.dice.preferred_pairs
    for _ in range(space.rules.rolls_per_turn - 1):
        keep, keep2 = keeper_values(space, roll_values), keeper_values(space, e2)
        roll_values = best_subkeeper(space, keep)
        e2 = np.empty(roll_values.shape)
        _extreme_good(keep, roll_values, keep2, k, starts, TIE, sign, e2)
    return keeper_values(space, e2)[0]


@njit(cache=True)
def _extreme_good(keep, roll_values, second, k, starts, tie, sign, out):
    n_rolls, S = roll_values.shape
    for r in range(n_rolls):
        out[r, :] = -np.inf
        for pos in range(starts[r], starts[r + 1]):
            kk = k[pos]
            for s in range(S):
                if keep[kk, s] >= roll_values[r, s] - tie:
                    out[r, s] = max(out[r, s], sign * second[kk, s])
        out[r, :] *= sign
