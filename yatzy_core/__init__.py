"""yatzy-core: exact dice probabilities, the optimal solver and an advisor for the Yahtzee family."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("yatzy-core")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0.0.0"

from .dice import DiceSpace, counts_of, dice_of, dice_space
from .rules import Box, Rules, get_rules, rule_names
from .solver import Solution, solve
from .states import StateSpace

__all__ = [
    "__version__", "DiceSpace", "counts_of", "dice_of", "dice_space",
    "Box", "Rules", "get_rules", "rule_names", "Solution", "solve", "StateSpace",
]
