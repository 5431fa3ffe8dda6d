"""The advisor: every choice open in one game position, ranked for an objective (by default the
points it should still bring).

`advise` reads the solved state values and works through the rest of this one turn with the
solver's own functions (`turn.py` on a single state), so its numbers are the solver's numbers.

>>> p = Position.make("yahtzee", dice="11112", rolls_left=2)
>>> advise(p)[0].label
'keep 1 1 1 1'
"""
from __future__ import annotations

import numpy as np

from dataclasses import replace
from functools import lru_cache

from ..engine.position import Position
from ..engine.progress import announce
from ..game.checks import instance_of
from ..engine.saved import SavedSolution, saved_memory, saved_turn, solve_saved, whole_saved_solution
from ..engine.solutions import solution_for
from ..engine.solver import Solution, solve
from ..engine.subgame import full_table_at_hand, subgame_rules
from ..game.states import StateSpace
from ..objectives.objective import MEAN, AdviceObjective
from .ranking import Advice, choice_dict, choice_label, choices

__all__ = ["Advice", "advise", "choices", "rest_of_game", "choice_label", "choice_dict"]


def rest_of_game(position: Position) -> Position:
    """The same position in the game of its open boxes (`subgame.subgame_rules`): the same dice,
    rolls left and Yahtzee flag, no upper points yet; every choice is worth what it is worth in
    the full game.

    >>> p = Position.make("maxi-yatzy", used="ones,twos,threes,fours,fives", upper_total=60, dice="666655")
    >>> rest = rest_of_game(p)
    >>> rest.rules.upper_bonus_threshold, rest.upper_total, rest.points("sixes")  # 24 to go: bonus now
    (24, 0, 124)
    """
    instance_of("position", position, Position, "a Position (Position.make(...))")
    rules = subgame_rules(position.rules, position.used, position.upper_total)
    return Position(rules, position.used & {rules.yahtzee_box}, 0, position.dice, position.rolls_left,
                    position.yahtzee_bonus)


def advise(position: Position, solution: Solution | SavedSolution | None = None, use_cache: bool = True, *,
           objective: AdviceObjective = MEAN) -> list[Advice]:
    """Every distinct choice in this position, best first, valued for `objective`: `MaxMean()`
    (expected points still to come), `AtLeast(total, points)`, `Beat(score, points)` or
    `Risk(theta)` (`objectives.objective`). The choices, their order and ties are `choices`'.

    For the mean, without a `solution` the full game's table is used when it is at hand (in
    memory, cached, or a small game); else only the game of the open boxes is solved
    (`rest_of_game`), so a late Maxi Yatzy position never needs the 57M-state table.
    use_cache=False solves afresh. A game with saved rolls takes a whole `saved.SavedSolution`
    or solves the game of its open boxes. Another objective values the choices itself
    (`AdviceObjective.turn`) from `solution`, its own table (Targets, RiskTable), when given.

    >>> ranked = advise(Position.make("yahtzee", dice="11112", rolls_left=2))
    >>> {**ranked[0].to_dict(), "expected": round(ranked[0].expected, 4)}   # --json: full precision
    {'action': 'keep', 'keep': [1, 1, 1, 1], 'expected': 270.2986, 'loss': 0.0}
    >>> ranked[1].label, round(ranked[1].loss, 4)
    ('keep 1 1 1', 15.3041)
    >>> advise(Position.make("yahtzee", dice="23456", rolls_left=2))[0].label
    'score large_straight now'
    """
    if not isinstance(position, Position):
        raise TypeError(f"position must be a Position (see Position.make), got {type(position).__name__}")
    instance_of("objective", objective, AdviceObjective, "an objective: MaxMean(), AtLeast, Beat or Risk")
    objective.check(position.rules)
    if position.rules.saved_rolls:
        if isinstance(solution, SavedSolution):
            return _saved_advice_from(position, whole_saved_solution(position.rules, solution))
        if solution is not None:
            raise ValueError("a game with saved rolls is advised from the game of its open boxes or a whole "
                             "SavedSolution (no other solution)")
        return _saved_advice(position)
    if isinstance(solution, AdviceObjective):
        raise TypeError(f"solution must be a solved table or None, got {type(solution).__name__} "
                        "(an objective goes as objective=...)")
    if not objective.mean_play:   # a goal or an appetite: the objective values the choices
        from ..objectives.midgame import mean_turn   # numba's kernels: only when asked
        space = StateSpace(position.rules)
        mean = mean_turn(space, position.state(space), use_cache)   # the tie-breaker, once
        if solution is None:    # a table that takes minutes says so first, and shows a bar
            solution = objective_table(objective, position, use_cache)
        turn, pick = objective.turn(position, solution, use_cache, mean)
        return choices(position, turn, pick, objective.measure, objective.tie_break(turn, mean))
    if solution is not None and not isinstance(solution, Solution):
        raise TypeError(f"solution must be a Solution or None, got {type(solution).__name__}")
    if solution is None and not full_table_at_hand(position.rules):
        position = rest_of_game(position)   # a small game, solved in memory: never cached, since
        solution = solve(position.rules, progress=False)   # each position would add a file
    solution = solution_for(position.rules, solution, use_cache=use_cache)
    turn, pick = objective.turn(position, solution, use_cache)
    return choices(position, turn, pick)


def objective_table(objective: AdviceObjective, position: Position, use_cache: bool = True):
    """`objective`'s table for `position`, announced (what, roughly how long) and solved with a
    bar when it is not quick (`AdviceObjective.work`; `engine.progress` silences both); None
    when it is quick (the objective then finds it itself)."""
    what, seconds = objective.work(position.rules, position, use_cache)
    if not what:
        return None
    announce(what, seconds)
    return objective.table(position, use_cache, progress=True)


def _saved_advice(position: Position) -> list[Advice]:
    """The choices of a game with saved rolls: the game of the open boxes is solved (it can
    hold every saved count of the full game), and its turn worked from this position's rerolls;
    scoring a box now saves the rerolls left ("score villa now, saving 2 rolls")."""
    rules = position.rules
    rest = subgame_rules(rules, position.used, position.upper_total)
    need = saved_memory(rest, before=len(position.used))
    if need > SAVED_ADVICE_BYTES:
        raise ValueError(f"advice with saved rolls solves the game of the open boxes: with {rest.n_boxes} "
                         f"open that needs {need / 1e9:.1f} GB, more than {SAVED_ADVICE_BYTES / 1e9:.1f} GB "
                         f"(Maxi Yatzy: at most 16 boxes open, about a minute)")
    solved = _open_boxes_solved(rest, len(position.used))
    turn = saved_turn(solved, int(solved.space.index(0, 0, 0)), position.rolls_left)
    final = np.full((rules.n_boxes,) + turn.final.shape[1:], -np.inf)
    final[[rules.box_index(name) for name in rest.box_names]] = turn.final
    return choices(position, replace(turn, final=final), lambda a: a)


def _saved_advice_from(position: Position, solved: SavedSolution) -> list[Advice]:
    """The choices of a saved-roll position read from the whole game's table (the coach's):
    the same numbers as the game of the open boxes gives."""
    return choices(position, saved_turn(solved, position.state(solved.space), position.rolls_left), lambda a: a)


SAVED_ADVICE_BYTES = 1_500_000_000   # every layer of the open boxes' game is kept for the turn


@lru_cache(maxsize=8)
def _open_boxes_solved(rest, before: int) -> SavedSolution:
    return solve_saved(rest, progress=False, before=before)
