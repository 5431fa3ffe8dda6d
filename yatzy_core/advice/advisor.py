"""The advisor: every choice open in one game position, ranked by the points it should still bring.

`advise` reads the solved state values and works through the rest of this one turn with the
solver's own functions (`turn.py` on a single state), so its numbers are the solver's numbers.

>>> p = Position.make("yahtzee", dice="11112", rolls_left=2)
>>> advise(p)[0].label
'keep 1 1 1 1'
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.dice import dice_of
from ..engine.position import Position
from ..engine.solutions import solution_for
from ..engine.solver import Solution, solve
from ..engine.subgame import full_table_at_hand, subgame_rules
from ..engine.turn import box_values, evaluate, ranked

__all__ = ["Advice", "advise", "rest_of_game", "choice_label", "choice_dict"]


@dataclass(frozen=True)
class Advice:
    """One choice: keep these dice and reroll the rest, or score this box; with the points still
    expected in this game after making it, and how many fewer that is than the best choice."""

    action: str                         # "keep" or "box"
    keep: tuple[int, ...] | None
    box: str | None
    expected: float
    loss: float

    @property
    def label(self) -> str:
        return choice_label(self.action, self.keep, self.box)

    def to_dict(self) -> dict:
        """JSON-ready: {"action": "keep", "keep": [1, 1], ...} or {"action": "box", "box": ...}."""
        return {**choice_dict(self.action, self.keep, self.box), "expected": round(self.expected, 4),
                "loss": round(self.loss, 4)}


def choice_label(action: str, keep, box) -> str:
    """How a choice reads: "keep 1 1", "reroll all" or "score chance"."""
    if action == "box":
        return f"score {box}"
    return "reroll all" if not keep else "keep " + " ".join(map(str, keep))


def choice_dict(action: str, keep, box) -> dict:
    """A choice as JSON fields: {"action": "keep", "keep": [...]} or {"action": "box", "box": ...}."""
    return {"action": action, **({"keep": list(keep)} if action == "keep" else {"box": box})}


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


def advise(position: Position, solution: Solution | None = None, use_cache: bool = True) -> list[Advice]:
    """Every distinct choice in this position, best first, with its expected points still to come.

    With rerolls left the choices are the distinct keepers of the dice (keeping all means not
    rerolling); after the last roll they are the boxes allowed. The values and the order are the
    turn engine's (`turn.evaluate`, `turn.ranked`): choices within TIE of each other are ordered
    by its tie rule (keepers with more dice first, then by their dice; boxes in card order).

    Without a `solution` the full game's table is used when it is at hand (in memory, cached, or
    a small game); else only the game of the open boxes is solved (`rest_of_game`), so a late
    Maxi Yatzy position never needs the 57M-state table. use_cache=False solves afresh.

    >>> ranked = advise(Position.make("yahtzee", dice="11112", rolls_left=2))
    >>> ranked[0].to_dict()
    {'action': 'keep', 'keep': [1, 1, 1, 1], 'expected': 270.2986, 'loss': 0.0}
    >>> ranked[1].label, round(ranked[1].loss, 4)
    ('keep 1 1 1 1 2', 10.1064)
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position (see Position.make), got {type(position).__name__}")
    if solution is not None and not isinstance(solution, Solution):
        raise TypeError(f"solution must be a Solution or None, got {type(solution).__name__}")
    if solution is None and not full_table_at_hand(position.rules):
        position = rest_of_game(position)   # a small game, solved in memory: never cached, since
        solution = solve(position.rules, progress=False)   # each position would add a file
    rules = position.rules
    solution = solution_for(rules, solution, use_cache=use_cache)
    space = solution.space
    turn = evaluate(space, box_values(space, solution.values, np.array([position.state(space)])),
                    choose=False)
    if position.rolls_left == 0:
        values = turn.final[:, position.roll, 0]
        options = [Advice("box", None, name, float(v), 0.0)
                   for name, v in zip(rules.box_names, values) if np.isfinite(v)]
    else:
        keep = turn.keepers[position.rolls_left - 1][:, 0]
        k, starts = rules.dice.preferred_pairs        # the roll's sub-keepers, preferred first
        options = [Advice("keep", dice_of(rules.dice.keepers[i]), None, float(keep[i]), 0.0)
                   for i in k[starts[position.roll]:starts[position.roll + 1]]]
    order = ranked([a.expected for a in options], range(len(options)))
    best = options[order[0]].expected
    return [Advice(a.action, a.keep, a.box, a.expected, best - a.expected) for a in (options[i] for i in order)]
