"""yatzy-core: exact dice probabilities, the optimal solver and an advisor for the Yahtzee family.

The flat public API of the core; the optional figures and widgets are in `yatzy_core.ui`.

>>> from yatzy_core import get_rules, StateSpace
>>> StateSpace(get_rules("yahtzee")).counts()["reachable_turn_states"]
536448
"""
from .version import __version__
from .dice import DiceSpace, counts_of, dice_of, dice_space
from .rules import Box, Rules, get_rules, rule_names
from .states import StateSpace, layer_sizes
from .turn import (TIE, AtLeast, ExpUtility, MaxMean, Turn, best_subkeeper, box_values, evaluate,
                   keeper_values, preferred_box, preferred_keeper, score_box, turn_values)
from .solver import Solution, solve
from .bruteforce import brute_force_value
from .cache import get_solution
from .solutions import solution_for
from .advisor import Advice, Position, advise, rest_of_game
from .subgame import subgame_rules

# Loaded on first use (PEP 562), so that `import yatzy_core` and the `yatzy` command stay fast:
# these bring numba along (the players and pandas come with `simulate`).
_LAZY = {
    "policy": ("second_moments", "turn_outcomes"),
    "distribution": ("ScoreDistribution", "bonus_probabilities", "box_expectations", "ks_test",
                     "optimal_play", "score_distribution"),
    "strategies": ("Greedy", "NeverRerolls", "Optimal", "Random", "RerollsOnce", "Strategic"),
    "planners": ("Heuristic", "MCPlanner", "TurnExpectation"),
    "players": ("get_strategy", "make_player", "strategy_names"),
    "simulation": ("simulate", "summary"),
    "study": ("Study", "comparison", "run_study"),
    "coach": ("Game", "play_optimally"),
}
_HOME = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module 'yatzy_core' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "__version__", "DiceSpace", "counts_of", "dice_of", "dice_space",
    "Box", "Rules", "get_rules", "rule_names", "StateSpace", "layer_sizes",
    "TIE", "AtLeast", "ExpUtility", "MaxMean", "Turn", "best_subkeeper", "box_values", "evaluate",
    "keeper_values", "preferred_box", "preferred_keeper", "score_box", "turn_values",
    "Solution", "solve", "brute_force_value", "get_solution", "solution_for",
    "second_moments", "turn_outcomes", "Advice", "Position", "advise", "rest_of_game", "subgame_rules",
    "ScoreDistribution", "bonus_probabilities", "box_expectations", "ks_test", "optimal_play",
    "score_distribution", "Greedy", "NeverRerolls", "Optimal", "Random", "RerollsOnce",
    "Strategic", "Heuristic", "MCPlanner", "TurnExpectation", "get_strategy", "make_player",
    "strategy_names", "simulate", "summary", "Study", "comparison", "run_study",
    "Game", "play_optimally",
]
