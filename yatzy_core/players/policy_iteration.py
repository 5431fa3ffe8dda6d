"""Policy evaluation, policy improvement and policy iteration on a whole game, exactly.

A policy is any player of `batch.Strategy` whose choices are a function of the position (state,
roll, rerolls left): the heuristics of chapter 6, a rule list, the optimal player. Its value is

    V_pi(s) = E[points of the turn + V_pi(next state)]    (the turn played by pi's own choices),

worked backwards from the full card, like the solver but with pi's choices in place of the
best ones: *policy evaluation* (Sutton and Barto, ch. 4). No sampling: the value is exact to
rounding. *Policy improvement* plays each turn the best way for the values V_pi of the states
after it (`LookAhead`: a one-turn look-ahead, Bertsekas's rollout with pi as base policy); by
the policy improvement theorem it is never worse than pi, from any state. *Policy iteration*
repeats the two until the policy stops changing; then its values solve the Bellman equation.

>>> from yatzy_core.game.rules import get_rules
>>> yatzy = get_rules("yatzy")
>>> game = yatzy.with_(name="fives, sixes, chance", boxes=yatzy.boxes[4:6] + yatzy.boxes[13:14], upper_bonus=0)
>>> steps = policy_iteration(FirstOpenBox(game))
>>> [(round(step.start, 4), step.improved_states) for step in steps]   # never reroll; then improve
[(26.6667, 0), (50.9686, 7), (51.316, 4), (51.316, 0)]
>>> from yatzy_core.engine.solver import solve
>>> abs(steps[-1].start - solve(game, progress=False).expected_score) < 1e-9   # the fixed point: optimal
True
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.progress import progress_on
from ..engine.turn import box_values, evaluate, keeper_values
from ..game.states import StateSpace
from .strategies import Player

__all__ = ["turn_choices", "evaluate_policy", "LookAhead", "FirstOpenBox", "UnderRules", "Step", "policy_iteration"]

BLOCK = 512   # states per block: bounds the (n_boxes, n_rolls, BLOCK) array of box values


def turn_choices(player, states: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """`player`'s choices in every roll of a turn from each of `states`: the box of each final
    roll, (n_rolls, S), and the keeper of each roll with j rerolls left, [(n_rolls, S)] for
    j = 1, 2, ... A player with its own `turn_choices(states)` is asked that; any other is asked
    its `box` and `keep` for every (roll, state) pair at once (so it must be deterministic)."""
    own = getattr(player, "turn_choices", None)
    if own is not None:
        return own(states)
    rules = player.rules
    n_rolls, n = rules.dice.n_rolls, len(states)
    at_states, at_rolls = np.tile(states, n_rolls), np.repeat(np.arange(n_rolls), n)
    rng = np.random.default_rng(0)
    box = np.asarray(player.box(at_states, at_rolls, rng), dtype=np.int64).reshape(n_rolls, n)
    keeps = [np.asarray(player.keep(at_states, at_rolls, j, rng), dtype=np.int64).reshape(n_rolls, n)
             for j in range(1, rules.rolls_per_turn)]
    return box, keeps


def _turn_value(space: StateSpace, values, states, box, keeps) -> np.ndarray:
    """Value at the start of the turn from each state when the turn is played by these choices
    and the states after it are worth `values`: the turn engine's stages, with the policy's
    choice read where the solver would take the best."""
    final = box_values(space, values, states)                               # (boxes, rolls, S)
    column = np.arange(len(states))
    roll = final[box, np.arange(final.shape[1])[:, None], column]           # (rolls, S)
    if not np.isfinite(roll).all():
        raise ValueError("player: chose a box that is used or not allowed")
    for keep in keeps:                                   # stage j = 1, 2, ...: j rerolls left
        roll = keeper_values(space, roll)[keep, column]
    return keeper_values(space, roll)[0]                 # the first roll: keeper 0 keeps nothing


def evaluate_policy(player, progress: bool = False) -> np.ndarray:
    """Policy evaluation: V_pi of every state of `player.rules` (float64, indexed like the
    solver's values), backwards from the full card. Every reachable state is evaluated (not only
    those the solver treats as distinct: a policy may tell them apart).

    >>> from yatzy_core.game.rules import get_rules
    >>> chance = get_rules("yatzy").with_(name="chance", boxes=get_rules("yatzy").boxes[13:14], upper_bonus=0)
    >>> float(evaluate_policy(FirstOpenBox(chance))[0])          # never rerolls: 5 dice * 3.5
    17.5
    """
    space = StateSpace(player.rules)
    values = np.zeros(space.size)
    layers = space.backward(space.n_boxes - 1)
    if progress_on(progress):
        from tqdm.auto import tqdm
        layers = tqdm(layers, total=space.n_boxes, desc=f"evaluating {player!r}", leave=False)
    for states, _, _ in layers:
        for i in range(0, len(states), BLOCK):
            block = states[i:i + BLOCK]
            values[block] = _turn_value(space, values, block, *turn_choices(player, block))
    return values


class LookAhead(Player):
    """Policy improvement: each turn played the best way for `values` (V_pi of a base policy pi)
    at the states after it, i.e. greedy with respect to V_pi. By the policy improvement theorem
    its own value is at least V_pi in every state. Ties as the turn engine breaks them. The
    package's one look-ahead: `thumb_exact.look_ahead` asks it by (used boxes, upper total) for
    the exact forward pass."""

    def __init__(self, rules, values: np.ndarray, name: str = "look-ahead"):
        super().__init__(rules)
        if np.shape(values) != (self.space.size,):
            raise ValueError(f"values: need one per state ({self.space.size}), got shape {np.shape(values)}")
        self.values, self.name = np.asarray(values, dtype=np.float64), name

    def turn_choices(self, states):
        turn = evaluate(self.space, box_values(self.space, self.values, np.asarray(states)))
        return turn.box, turn.keep

    def keep(self, states, rolls, rerolls, rng):
        return np.array([self.turn_choices([s])[1][rerolls - 1][r, 0] for s, r in zip(states, rolls)])

    def box(self, states, rolls, rng):
        return np.array([self.turn_choices([s])[0][r, 0] for s, r in zip(states, rolls)])


class FirstOpenBox(Player):
    """The simplest policy, for small examples: never reroll, score the first open box allowed."""

    name = "first open box"

    def turn_choices(self, states):
        states = np.asarray(states)
        final = box_values(self.space, np.zeros(self.space.size), states)
        n_rolls = self.rules.dice.n_rolls
        box = np.argmax(np.isfinite(final), axis=0)                          # first allowed box
        keep = self.rules.dice.roll_offset + np.arange(n_rolls)[:, None].repeat(len(states), 1)
        return box, [keep] * (self.rules.rolls_per_turn - 1)

    def keep(self, states, rolls, rerolls, rng):
        return self.rules.dice.roll_offset + np.asarray(rolls)

    def box(self, states, rolls, rng):
        return np.array([self.turn_choices([s])[0][r, 0] for s, r in zip(states, rolls)])


class UnderRules(Player):
    """`player`'s own choices, played under other `rules` of the same states and choices (a change
    of points, or of the bonus's amount): chapter 9's old policy in a new game. Its value there
    (`evaluate_policy`) is that of a policy of the new game, so at most the new optimum.

    >>> from yatzy_core.game.rules import get_rules
    >>> from yatzy_core.game.variants import variant
    >>> plain = get_rules("yahtzee-no-bonus")
    >>> old = plain.with_(name="house, chance", boxes=plain.boxes[8:9] + plain.boxes[12:13],
    ...                  yahtzee_box=None, upper_bonus=0)
    >>> new = variant(old, points={"full_house": 40})      # P(full house in one roll) = 300/7776
    >>> round(float(evaluate_policy(UnderRules(FirstOpenBox(old), new))[0]), 4), round(40 * 300 / 7776 + 17.5, 4)
    (19.0432, 19.0432)
    """

    def __init__(self, player, rules, name: str = ""):
        super().__init__(rules)
        same = (player.space.size == self.space.size and player.rules.n_boxes == self.rules.n_boxes
                and player.rules.dice == self.rules.dice and player.rules.rolls_per_turn == self.rules.rolls_per_turn
                and player.rules.box_names == self.rules.box_names   # a box index names the same box
                and player.rules.upper_bonus_threshold == self.rules.upper_bonus_threshold)
        if not same:
            raise ValueError(f"rules: {self.rules.name!r} must have the states and choices of {player.rules.name!r} "
                             "(the same dice, rolls, boxes in the same order, upper threshold and tracked totals); "
                             "only points may differ")
        self.player, self.name = player, name or f"{getattr(player, 'name', 'player')} under {self.rules.name}"

    def turn_choices(self, states):
        return turn_choices(self.player, states)


@dataclass(frozen=True)
class Step:
    """One policy of policy iteration: its exact values, and how many states it plays better
    than the policy before it (by more than 1e-9)."""

    values: np.ndarray
    start: float          # V at the empty card
    improved_states: int


def policy_iteration(player, max_steps: int | None = None, progress: bool = False) -> list[Step]:
    """Policy iteration from `player`: evaluate, improve (`LookAhead`), evaluate, ... until no
    state improves (the last step repeats the fixed point) or after `max_steps` improvements.
    In a game of B boxes it ends within B + 1 improvements: after n of them the last n turns are
    played optimally."""
    space = StateSpace(player.rules)
    values = evaluate_policy(player, progress)
    steps = [Step(values, float(values[0]), 0)]
    limit = space.n_boxes + 1 if max_steps is None else max_steps
    while len(steps) <= limit:
        name = f"look-ahead {len(steps)}"
        values = evaluate_policy(LookAhead(player.rules, steps[-1].values, name), progress)
        better = int(((values - steps[-1].values) > 1e-9)[space.reachable].sum())
        steps.append(Step(values, float(values[0]), better))
        if better == 0:
            break
    return steps
