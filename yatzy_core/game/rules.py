"""The rule sets by name: the built-in ones are TOML rule files in `yatzy_core/game/rulesets/`
(read by rulefile.py into `Rules` values, defined in ruleset.py), each box naming one scorer of
the catalogue in scoring.py.

>>> yatzy = get_rules("yatzy")
>>> yatzy.score("two_pairs", [1, 2, 2, 4, 4]), yatzy.score("full_house", [5, 5, 6, 6, 6])
(12, 28)
"""
from __future__ import annotations

from pathlib import Path

from .rulefile import load
from .ruleset import Rules

__all__ = ["Rules", "get_rules", "rule_names", "BUILTIN", "CLASSIC", "UPPER_NAMES"]

UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")

# The rule sets shipped as yatzy_core/game/rulesets/<name>.toml. CLASSIC are the five whose numbers
# the notebooks, studies and widgets show; the others are newer and some need more than 5 dice.
CLASSIC = ("yahtzee", "yahtzee-verhoeff", "yahtzee-no-bonus", "yatzy", "yatzy-thesis")
BUILTIN = CLASSIC + ("forced-yatzy", "yahtzee-3-rerolls", "maxi-yatzy", "maxi-yatzy-no-saved-rolls")
RULESETS = Path(__file__).with_name("rulesets")

_CACHE: dict[str, Rules] = {}


def get_rules(name: str | Rules) -> Rules:
    """A built-in rule set by name (or a Rules value, returned as is)."""
    if isinstance(name, Rules):
        return name
    if name not in BUILTIN:
        raise ValueError(f"unknown rules {name!r}; choose one of: {', '.join(BUILTIN)}")
    if name not in _CACHE:
        _CACHE[name] = load(RULESETS / f"{name}.toml")
    return _CACHE[name]


def rule_names(include_new: bool = False) -> list[str]:
    """Names of the built-in rule sets: the five classic ones, or with include_new all of them.

    >>> rule_names(include_new=True)[5:]
    ['forced-yatzy', 'yahtzee-3-rerolls', 'maxi-yatzy', 'maxi-yatzy-no-saved-rolls']
    """
    return list(BUILTIN if include_new else CLASSIC)
