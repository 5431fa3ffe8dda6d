"""The game as a Gymnasium environment (the `gymnasium` extra): one episode a game, every move
scored exactly by the batch advisor (`engine.batch_advice`).

`Env()` is standard Yahtzee; `Env(rules=...)` takes a built-in rule set's name, a `Rules` value
or a rule file's rules (not a game with saved rolls), and `solution=` a solved table to reuse.

Actions: `Discrete(O)`, the one option index of `batch_advice` (`option_labels(rules)` names
them): action b < n_boxes scores box b (after the last roll, or now, giving up the rerolls
left); action n_boxes + k keeps keeper k (`rules.dice.keepers[k]`) and rerolls the other dice.

Observation: a `Dict` of
    counts         MultiDiscrete([n_dice + 1] * faces): the dice showing, counts per face
    used           MultiBinary(n_boxes): the used boxes, in card order
    upper_total    Discrete(threshold + 1): the upper total, capped at the bonus threshold
    yahtzee_bonus  Discrete(2): the Yahtzee box holds its 50 (always 0 without the bonus)
    rolls_left     Discrete(rolls_per_turn): rerolls left this turn
    action_mask    MultiBinary(O): 1 for the legal actions (an allowed box; with rerolls left a
                   keeper inside the dice)

Reward: the points an action earns (box, upper bonus and Yahtzee bonus; 0 for a keeper), so an
episode's return is the game's score. An illegal action ends the game (terminated, reward 0): it
forfeits the points still to come, and its regret is the position's whole value.

`info` (after `reset` and each `step`, for the position observed): "action_mask", "value" (the
position's optimal value: expected points still to come), "regret" (O,) of each action (the
best action's value less the action's under the package's tie rule; an illegal action's is
"value"), "best" (the best action), "score" (points so far); after a step also "step_regret",
the regret of the action just taken. Regret is exact: E[sum of regrets] + E[score] = V(start)
for any policy (tests/test_gym_env.py checks it by enumeration on a small game).

`Env(advice=False)` leaves the advice out of `info` (the action mask stays): an agent that asks
the batch advisor itself for many games at once needs no answer per step (benchmarks/gym_optimal.py).

`reset(seed=..., options={"position": {...}})` starts from a given position (the arrays'
names as in `advise_batch`, one position each) instead of a new game.
"""
from __future__ import annotations

from typing import NamedTuple

import gymnasium
import numpy as np
from gymnasium import spaces

from ..engine.batch_advice import advise_batch, option_count, option_labels
from ..engine.solutions import solution_for
from ..engine.solver import Solution
from ..engine.turn import score_box
from ..game.checks import true_or_false
from ..game.rules import Rules
from .batch import keepers_inside, reroll

__all__ = ["Env"]


class _Advice(NamedTuple):
    """The position's advice: legal actions, each action's regret, the value, the best action."""

    legal: np.ndarray
    regret: np.ndarray
    value: float
    best: int


class Env(gymnasium.Env):
    """A game of the Yahtzee family, one episode a game (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, rules: str | Rules = "yahtzee", *, solution: Solution | None = None,
                 advice: bool = True, render_mode: str | None = None):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.solution = solution_for(rules, solution, progress=True)   # a bar when solved (engine.progress)
        self.rules = rules = self.solution.rules
        if rules.saved_rolls:
            raise ValueError(f"rules: {rules.name!r} save rolls; the environment plays games without them")
        self.render_mode = render_mode
        self.advice = true_or_false("advice", advice)
        self.labels = option_labels(rules)
        n = option_count(rules)
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Dict({
            "counts": spaces.MultiDiscrete([rules.n_dice + 1] * rules.faces),
            "used": spaces.MultiBinary(rules.n_boxes),
            "upper_total": spaces.Discrete(rules.upper_cap + 1),
            "yahtzee_bonus": spaces.Discrete(2),
            "rolls_left": spaces.Discrete(rules.rolls_per_turn),
            "action_mask": spaces.MultiBinary(n)})
        self._card = (0, 0, 0)       # used mask, capped upper total, flag
        self._roll, self._rolls_left, self._score = 0, 0, 0
        self._advice: _Advice | None = None
        self._over = False

    # ---- the episode ----------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be a dict such as {{'position': {{...}}}}, got {type(options).__name__}")
        position = (options or {}).get("position")
        if position is not None and not isinstance(position, dict):
            raise ValueError(f"options: position must be a dict of counts, used, upper_total, yahtzee_bonus "
                             f"and rolls_left, got {type(position).__name__}")
        self._score, self._over = 0, False
        if position is None:
            self._card = (0, 0, 0)
            self._roll, self._rolls_left = self._draw(0), self.rules.rolls_per_turn - 1
        else:
            self._start_at(position)
        return self._observe(), self._info()

    def step(self, action):
        if self._advice is None or self._over:
            raise RuntimeError("the game is over or not started: call reset()")
        action = _action(action, self.action_space.n)
        legal = 0 <= action < self.action_space.n and bool(self._advice.legal[action])
        regret = float(self._advice.regret[action]) if legal else self._advice.value   # nan: advice=False
        reward = 0.0
        rules = self.rules
        if not legal:                  # forfeits the rest of the game
            self._over = True
        elif action < rules.n_boxes:
            space = self.solution.space
            s = score_box(space, space.index(*self._card), self._roll, action)
            reward = float(s.points)
            self._score += int(s.points)
            self._card = tuple(int(x) for x in space.decode(s.next_state))
            self._over = self._card[0] == (1 << rules.n_boxes) - 1
            if not self._over:
                self._roll, self._rolls_left = self._draw(0), rules.rolls_per_turn - 1
        else:
            self._roll, self._rolls_left = self._draw(action - rules.n_boxes), self._rolls_left - 1
        observation, info = self._observe(), self._info()
        if self.advice:
            info["step_regret"] = regret
        return observation, reward, self._over, False, info

    def render(self):
        if self.render_mode != "ansi":
            return None
        used = [b for i, b in enumerate(self.rules.box_names) if self._card[0] >> i & 1]
        dice = " ".join(str(f + 1) for f in np.repeat(np.arange(self.rules.faces), self.rules.dice.rolls[self._roll]))
        return (f"{self.rules.name}: dice {dice}, {self._rolls_left} rerolls left; used: "
                f"{', '.join(used) or 'none'}; upper total {self._card[1]}; score {self._score}")

    def action_masks(self) -> np.ndarray:
        """The legal actions (the name sb3-contrib's maskable agents call)."""
        return self._advice.legal.astype(np.int8)

    # ---- helpers ----------------------------------------------------------------------------

    def _draw(self, keeper: int) -> int:
        return int(reroll(self.rules, np.array([keeper]), self.np_random)[0])

    def _start_at(self, position: dict) -> None:
        """The position of `reset(options={"position": ...})`, checked by `advise_batch`."""
        names = ("counts", "used", "upper_total", "yahtzee_bonus", "rolls_left")
        missing = [n for n in names if n not in position]
        if missing:
            raise ValueError(f"options: position lacks {', '.join(missing)}")
        arrays = {n: np.asarray(position[n])[None] for n in names}
        advise_batch(self.rules, **arrays, solution=self.solution)      # ValueError naming a bad part
        dice = self.rules.dice
        self._roll = dice.roll_index[tuple(int(c) for c in arrays["counts"][0])]
        self._card = (int(arrays["used"][0]), min(int(arrays["upper_total"][0]), self.rules.upper_cap),
                      int(arrays["yahtzee_bonus"][0]))
        self._rolls_left = int(arrays["rolls_left"][0])

    def _observe(self) -> dict:
        rules = self.rules
        used, upper, flag = self._card
        self._advise()
        return {"counts": rules.dice.rolls[self._roll].astype(np.int64),
                "used": ((used >> np.arange(rules.n_boxes)) & 1).astype(np.int8),
                "upper_total": np.int64(upper), "yahtzee_bonus": np.int64(flag),
                "rolls_left": np.int64(self._rolls_left),
                "action_mask": self._advice.legal.astype(np.int8)}

    def _advise(self) -> None:
        """The batch advisor's answer for the position now (nothing legal once the game is over)."""
        n = self.action_space.n
        if self._over:
            self._advice = _Advice(np.zeros(n, bool), np.zeros(n), 0.0, -1)
            return
        used, upper, flag = self._card
        if not self.advice:        # the legal actions only
            legal = np.zeros(n, bool)
            space = self.solution.space
            legal[:self.rules.n_boxes] = score_box(space, space.index(used, upper, flag), self._roll,
                                                   np.arange(self.rules.n_boxes)).allowed
            if self._rolls_left:
                k = keepers_inside(self.rules)[self._roll]
                legal[self.rules.n_boxes + k[(k >= 0) & (k < self.rules.dice.roll_offset)]] = True
            self._advice = _Advice(legal, np.full(n, np.nan), np.nan, -1)
            return
        b = advise_batch(self.rules, counts=self.rules.dice.rolls[self._roll][None], used=[used],
                         upper_total=[upper], yahtzee_bonus=[flag], rolls_left=[self._rolls_left],
                         solution=self.solution)
        value, legal = float(b.value[0]), b.legal[0]
        regret = np.where(legal, value - np.where(legal, b.values[0], 0.0), value)
        self._advice = _Advice(legal, regret, value, int(b.best[0]))

    def _info(self) -> dict:
        a = self._advice
        if not self.advice:
            return {"action_mask": a.legal.astype(np.int8), "score": self._score}
        return {"action_mask": a.legal.astype(np.int8), "value": a.value, "regret": a.regret.copy(),
                "best": a.best, "score": self._score}


def _action(action, n: int) -> int:
    """An action as an int: a whole number (numpy's included, a 0-d integer array too), never a
    float, a bool or text, which int() would quietly turn into another option; ValueError naming it.

    >>> _action(np.int64(12), 223), _action(np.array(3), 223)
    (12, 3)
    """
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be a whole number, an option index 0..{n - 1}, got {action!r}")
    return int(action)

