"""yatzy-core: exact dice probabilities, the optimal solver and an advisor for the Yahtzee family.

The flat public API of the core; the optional figures and widgets are in `yatzy_core.ui`.

>>> from yatzy_core import get_rules, StateSpace
>>> StateSpace(get_rules("yahtzee")).counts()["reachable_turn_states"]
536448
"""
from .version import __version__
from .game.dice import DiceSpace, counts_of, dice_of, dice_space
from .game.scoring import Box
from .game.rules import Rules, get_rules, rule_names
from .game.rulefile import load as rules_from_file, loads as rules_from_text   # a rule file (TOML), read and checked
from .game.states import StateSpace, layer_sizes
from .engine.turn import (TIE, ExpUtility, TargetLanes, Turn, best_subkeeper, box_values, evaluate,
                          keeper_values, preferred_box, preferred_keeper, score_box, turn_values)
from .engine.solver import Solution, solve
from .engine.bruteforce import brute_force_value
from .engine.cache import get_solution
from .engine.solutions import solution_for
from .advice.advisor import Advice, advise, rest_of_game
from .objectives.goals import AtLeast, Beat
from .objectives.objective import AdviceObjective, MaxMean
from .objectives.appetite import Risk
from .objectives.registry import objective_for
from .objectives.opponent_card import OpponentCard   # the parameter of Versus and Outscore
from .engine.position import Position, rerolls_left
from .engine.solved import SolvedTable
from .engine.subgame import subgame_rules
from .engine.stored_results import stored_result   # a measured record of results/, checked
from .engine.progress import progress   # progress(False): long work says nothing, shows no bar

# Loaded on first use (PEP 562), so that `import yatzy_core` and the `yatzy` command stay fast:
# these bring numba along (the players and pandas come with `simulate`).
_LAZY = {
    "engine.turn_forward": ("second_moments", "turn_outcomes"),
    "objectives.distribution": ("ScoreDistribution", "bonus_probabilities", "box_expectations", "ks_test",
                     "optimal_play", "score_distribution"),
    "players.strategies": ("Greedy", "Optimal", "Random", "Strategic"),
    "players.planners": ("Heuristic", "MCPlanner", "TurnExpectation"),
    "players.policy_iteration": ("FirstOpenBox", "LookAhead", "evaluate_policy", "policy_iteration"),
    "players.registry": ("get_strategy", "make_player", "strategy_names"),
    "players.simulation": ("simulate", "summary"),
    "players.study": ("Study", "comparison", "run_study"),
    "advice.coach": ("Game", "play_optimally"),
    "engine.batch_advice": ("BatchAdvice", "advise_batch", "option_labels"),   # the optimum in bulk
    # playing to win: the goals' and risk appetites' tables, their whole-game passes, two players
    "objectives.targets": ("Targets", "solve_targets", "target_table", "max_total", "most_gain"),
    "objectives.risk": ("RiskTable", "solve_risk", "risk_table", "theta_range", "certainty_equivalent"),
    "objectives.policy_play": ("target_play", "risk_play", "target_distribution", "risk_distribution",
                               "tie_table", "second_player"),
    "objectives.midgame": ("position_distribution", "target_position_distribution", "risk_position_distribution"),
    "advice.objective_advice": ("target_advice", "risk_advice", "play_to_target"),
    "advice.beat_grades": ("grade_to_beat",),
}
_HOME = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str):
    if name not in _HOME:
        from .objectives.registry import REGISTRY   # every registered objective and its parameters'
        found = next((kind for cls in REGISTRY.values()   # structured types (not int, float), by name
                      for kind in (cls, *(p.kind for p in cls.parameters))
                      if kind.__name__ == name and kind.__module__ != "builtins"), None)
        if found is None:
            raise AttributeError(f"module 'yatzy_core' has no attribute {name!r}")
        return found
    from importlib import import_module
    value = getattr(import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "__version__", "DiceSpace", "counts_of", "dice_of", "dice_space",
    "Box", "Rules", "get_rules", "rule_names", "rules_from_file", "rules_from_text", "StateSpace", "layer_sizes",
    "TIE", "ExpUtility", "TargetLanes", "Turn", "best_subkeeper", "box_values", "evaluate",
    "keeper_values", "preferred_box", "preferred_keeper", "score_box", "turn_values",
    "Solution", "solve", "brute_force_value", "get_solution", "solution_for",
    "second_moments", "turn_outcomes", "Advice", "AtLeast", "Beat", "MaxMean", "Risk", "Position", "advise", "rest_of_game", "subgame_rules",
    "ScoreDistribution", "bonus_probabilities", "box_expectations", "ks_test", "optimal_play",
    "score_distribution", "Greedy", "Optimal", "Random",
    "Strategic", "Heuristic", "MCPlanner", "TurnExpectation", "FirstOpenBox", "LookAhead",
    "evaluate_policy", "policy_iteration", "get_strategy", "make_player",
    "strategy_names", "simulate", "summary", "Study", "comparison", "run_study",
    "Game", "play_optimally", "BatchAdvice", "advise_batch", "option_labels", "AdviceObjective", "objective_for",
    "OpponentCard", "rerolls_left", "SolvedTable",
    "Targets", "solve_targets", "target_table", "max_total", "most_gain", "RiskTable", "solve_risk", "risk_table",
    "theta_range", "certainty_equivalent", "target_play", "risk_play", "target_distribution", "risk_distribution",
    "tie_table", "second_player", "position_distribution", "target_position_distribution",
    "risk_position_distribution", "target_advice", "risk_advice", "play_to_target", "grade_to_beat", "stored_result",
    "progress",
]
