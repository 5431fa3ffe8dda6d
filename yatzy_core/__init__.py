"""yatzy-core: exact dice probabilities, the optimal solver and an advisor for the Yahtzee family.

>>> from yatzy_core import get_rules, StateSpace
>>> StateSpace(get_rules("yahtzee")).counts()["reachable_turn_states"]
536448
"""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("yatzy-core")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0"

from .dice import DiceSpace, counts_of, dice_of, dice_space
from .rules import Box, Rules, get_rules, rule_names
from .states import StateSpace
from .solver import Solution, solve
from .cache import get_solution
from .advisor import Advice, Position, advise

__all__ = [
    "__version__", "DiceSpace", "counts_of", "dice_of", "dice_space",
    "Box", "Rules", "get_rules", "rule_names", "StateSpace", "Solution", "solve",
    "get_solution", "Advice", "Position", "advise",
]
