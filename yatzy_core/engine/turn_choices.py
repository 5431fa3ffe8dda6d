"""A turn from dice on the table, choice by choice: the advisor's options and how the turn ends.

`turn.evaluate` values every choice of a turn at once; here one roll's choices are listed in the
advisor's order (every allowed box scored now, then the keepers that reroll at least one die,
preferred first), the first of them for a policy is picked under the one tie rule
(`choice.ranked`: the best for the policy, within TIE the best mean, then that order), and the
rest of the turn is pushed forwards through such choices (`finish_turn`, with `turn_forward`'s
keeper moves). The advisor ranks with `roll_options`; the distribution of a policy from inside
a turn (`objectives.midgame`) plays the rest of the turn with `first_choice`.

>>> from yatzy_core.game.rules import get_rules
>>> space = StateSpace(get_rules("yatzy"))
>>> last = space.index((1 << space.n_boxes) - 1 - (1 << space.rules.box_index("chance")), 0)
>>> t = evaluate(space, box_values(space, np.zeros(space.size), np.array([last])), choose=False)
>>> roll = space.rules.dice.roll_index[(1, 1, 1, 0, 1, 1)]       # 1 2 3 5 6, only chance open
>>> kind, keeper = first_choice(space.rules, t, t, lambda a: a, roll, 2)
>>> kind, dice_of(space.rules.dice.keepers[keeper])               # as `turn.evaluate` chooses
('keep', (5, 6))
"""
from __future__ import annotations

import numpy as np

from ..game.dice import dice_of  # noqa: F401 (the doctest)
from ..game.states import StateSpace
from .choice import ranked
from .turn import Turn, box_values, evaluate  # noqa: F401 (box_values, evaluate: the doctest)

__all__ = ["roll_options", "first_choice", "finish_turn"]


def roll_options(rules, turn: Turn, pick, roll: int, rolls_left: int) -> list[tuple[str, int, float]]:
    """The choices with `roll` showing, in the advisor's order, valued by `pick` of the turn's
    values (of its first state): ("box", b, value) for every allowed box (scored now), then with
    rerolls left ("keep", keeper, value) for each keeper that rerolls at least one die,
    preferred first (`dice.preferred_pairs`)."""
    boxes = pick(turn.final[:, roll, 0])
    options = [("box", b, float(v)) for b, v in enumerate(boxes) if np.isfinite(v)]
    if rolls_left > 0:
        keep = pick(turn.keepers[rolls_left - 1][:, 0])
        k, starts = rules.dice.preferred_pairs
        options += [("keep", int(i), float(keep[i])) for i in k[starts[roll]:starts[roll + 1]]
                    if rules.dice.keepers[i].sum() < rules.n_dice]   # keeping all is scoring now
    return options


def first_choice(rules, turn: Turn, mean: Turn, pick, roll: int, rolls_left: int) -> tuple[str, int]:
    """The choice a policy makes with `roll` showing: the best by `pick` of `turn`; within TIE
    the best by `mean` (the max-mean turn of the same state); then the advisor's order."""
    options = roll_options(rules, turn, pick, roll, rolls_left)
    second = [v for _, _, v in roll_options(rules, mean, lambda a: a, roll, rolls_left)]
    kind, index, _ = options[ranked([v for _, _, v in options], range(len(options)), second)[0]]
    return kind, index


def finish_turn(space: StateSpace, roll: int, rolls_left: int, choose) -> np.ndarray:
    """(n_rolls, n_boxes) P(the turn ends with this roll in this box), from `roll` showing with
    `rolls_left` rerolls: `choose(j, live)` gives, for the rolls `live` with j rerolls left,
    each one's box scored now (-1: none; j = 0: a box for every roll) and its keeper (a full
    keeper rerolls nothing: the same roll, one reroll fewer)."""
    from .turn_forward import gather_keepers, spread_keepers   # numba: only when a turn is pushed
    dice = space.rules.dice
    ends = np.zeros((dice.n_rolls, space.n_boxes))
    mass = np.zeros((dice.n_rolls, 1))
    mass[roll, 0] = 1.0
    for j in range(rolls_left, -1, -1):
        live = np.flatnonzero(mass[:, 0] > 0)
        if not len(live):                 # every roll already scored
            break
        box, keeper = choose(j, live)
        now = box >= 0
        np.add.at(ends, (live[now], box[now]), mass[live[now], 0])
        if j == 0:
            break
        mass[live[now], 0] = 0.0
        chosen = np.zeros((dice.n_rolls, 1), dtype=np.int64)
        chosen[live[~now], 0] = keeper[~now]
        mass = spread_keepers(space, gather_keepers(space, mass, chosen))
    return ends
