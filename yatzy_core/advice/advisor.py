"""The advisor: every choice open in one game position, ranked for an objective (by default the
points it should still bring).

`advise` reads the solved state values and works through the rest of this one turn with the
solver's own functions (`turn.py` on a single state), so its numbers are the solver's numbers.

>>> p = Position.make("yahtzee", dice="11112", rolls_left=2)
>>> advise(p)[0].label
'keep 1 1 1 1'
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..game.dice import dice_of
from ..engine.position import Position
from ..engine.solutions import solution_for
from ..engine.solver import Solution, solve
from ..engine.subgame import full_table_at_hand, subgame_rules
from ..engine.turn import Turn, box_values, evaluate, ranked
from .objectives import MEAN, AtLeast, Beat, MaxMean, Objective, Risk

__all__ = ["Advice", "advise", "choices", "rest_of_game", "choice_label", "choice_dict"]


@dataclass(frozen=True)
class Advice:
    """One choice: keep these dice and reroll the rest, or score this box (with rerolls left:
    stop rolling, `now`); its `value` for the objective, in the objective's `measure`, and how
    much less that is than the best choice's (`loss`)."""

    action: str                         # "keep" or "box"
    keep: tuple[int, ...] | None
    box: str | None
    value: float
    loss: float
    measure: str = "expected"           # or "probability" or "certainty_equivalent"
    now: bool = False                   # a box scored with rerolls left

    @property
    def label(self) -> str:
        return choice_label(self.action, self.keep, self.box, self.now)

    @property
    def expected(self) -> float | None:
        """Expected points still to come (the mean's measure), else None."""
        return self.value if self.measure == "expected" else None

    @property
    def probability(self) -> float | None:
        return self.value if self.measure == "probability" else None

    @property
    def certainty_equivalent(self) -> float | None:
        return self.value if self.measure == "certainty_equivalent" else None

    def to_dict(self) -> dict:
        """JSON-ready: the choice, the value under its measure's name, and the loss."""
        exact = self.measure == "probability"          # probabilities are shown unrounded
        return {**choice_dict(self.action, self.keep, self.box),
                self.measure: self.value if exact else round(self.value, 4),
                "loss": self.loss if exact else round(self.loss, 4)}


def choice_label(action: str, keep, box, now: bool = False) -> str:
    """How a choice reads: "keep 1 1", "reroll all", "score chance" or "score chance now"."""
    if action == "box":
        return f"score {box} now" if now else f"score {box}"
    return "reroll all" if not keep else "keep " + " ".join(map(str, keep))


def choice_dict(action: str, keep, box) -> dict:
    """A choice as JSON fields: {"action": "keep", "keep": [...]} or {"action": "box", "box": ...}."""
    return {"action": action, **({"keep": list(keep)} if action == "keep" else {"box": box})}


def choices(position: Position, turn: Turn, pick, measure: str = "expected") -> list[Advice]:
    """Every choice of `position`, best first, valued by `pick` of the turn's values (the
    component of a vector objective, or a scale). The one enumeration of every objective: after
    the last roll the allowed boxes; with rerolls left each allowed box scored now (its
    final-roll value for these dice, what keeping all dice was worth at best) and the keepers
    that reroll at least one die. Within TIE: boxes first in card order, then keepers with
    more dice first, then by their dice (`turn.ranked`)."""
    rules = position.rules
    boxes = pick(turn.final[:, position.roll, 0])
    now = position.rolls_left > 0
    options = [Advice("box", None, name, float(v), 0.0, measure, now)
               for name, v in zip(rules.box_names, boxes) if np.isfinite(v)]
    if now:
        keep = pick(turn.keepers[position.rolls_left - 1][:, 0])
        k, starts = rules.dice.preferred_pairs        # the roll's sub-keepers, preferred first
        for i in k[starts[position.roll]:starts[position.roll + 1]]:
            dice = dice_of(rules.dice.keepers[i])
            if len(dice) < rules.n_dice:              # keeping all is scoring a box now
                options.append(Advice("keep", dice, None, float(keep[i]), 0.0, measure))
    order = ranked([a.value for a in options], range(len(options)))
    best = options[order[0]].value
    return [replace(options[i], loss=best - options[i].value) for i in order]


def rest_of_game(position: Position) -> Position:
    """The same position in the game of its open boxes (`subgame.subgame_rules`): the same dice,
    rolls left and Yahtzee flag, no upper points yet; every choice is worth what it is worth in
    the full game.

    >>> p = Position.make("maxi-yatzy", used="ones,twos,threes,fours,fives", upper_total=60, dice="666655")
    >>> rest = rest_of_game(p)
    >>> rest.rules.upper_bonus_threshold, rest.upper_total, rest.points("sixes")  # 24 to go: bonus now
    (24, 0, 124)
    """
    rules = subgame_rules(position.rules, position.used, position.upper_total)
    return Position(rules, position.used & {rules.yahtzee_box}, 0, position.dice, position.rolls_left,
                    position.yahtzee_bonus)


def advise(position: Position, solution: Solution | None = None, use_cache: bool = True, *,
           objective: Objective = MEAN) -> list[Advice]:
    """Every distinct choice in this position, best first, valued for `objective`: `MaxMean()`
    (expected points still to come), `AtLeast(total, points)`, `Beat(score, points)` or
    `Risk(theta)` (`advice.objectives`). The choices, their order and ties are `choices`'.

    For the mean, without a `solution` the full game's table is used when it is at hand (in
    memory, cached, or a small game); else only the game of the open boxes is solved
    (`rest_of_game`), so a late Maxi Yatzy position never needs the 57M-state table.
    use_cache=False solves afresh. The goals are `goals.goal_advice` and `goals.risk_advice`.

    >>> ranked = advise(Position.make("yahtzee", dice="11112", rolls_left=2))
    >>> ranked[0].to_dict()
    {'action': 'keep', 'keep': [1, 1, 1, 1], 'expected': 270.2986, 'loss': 0.0}
    >>> ranked[1].label, round(ranked[1].loss, 4)
    ('keep 1 1 1', 15.3041)
    >>> advise(Position.make("yahtzee", dice="23456", rolls_left=2))[0].label
    'score large_straight now'
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position (see Position.make), got {type(position).__name__}")
    if solution is not None and not isinstance(solution, Solution):
        hint = " (an objective goes as objective=...)" if isinstance(solution, (AtLeast, Beat, Risk, MaxMean)) else ""
        raise TypeError(f"solution must be a Solution or None, got {type(solution).__name__}{hint}")
    if not isinstance(objective, MaxMean):
        if solution is not None:
            raise ValueError("solution is the mean's table: give it only with objective MaxMean()")
        return _goal_advice(position, objective)
    if solution is None and not full_table_at_hand(position.rules):
        position = rest_of_game(position)   # a small game, solved in memory: never cached, since
        solution = solve(position.rules, progress=False)   # each position would add a file
    solution = solution_for(position.rules, solution, use_cache=use_cache)
    space = solution.space
    turn = evaluate(space, box_values(space, solution.values, np.array([position.state(space)])),
                    choose=False)
    return choices(position, turn, lambda a: a)


def _goal_advice(position: Position, objective) -> list[Advice]:
    """The goals' workers (numba's target kernel, imported only when a goal is asked)."""
    from .goals import goal_advice, risk_advice
    if isinstance(objective, (AtLeast, Beat)):
        goal = objective.goal
        return goal_advice(position, goal.points, goal.total)
    if isinstance(objective, Risk):
        return risk_advice(position, objective.theta)
    raise TypeError(f"objective must be MaxMean(), AtLeast, Beat or Risk, got {type(objective).__name__}")
