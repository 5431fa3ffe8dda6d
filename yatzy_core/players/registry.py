"""Every player by name: the registry above `strategies.py` and `planners.py`, so that neither
imports the other to be found.

>>> sorted(strategy_names())
['greedy', 'heuristic', 'mc_planner', 'optimal', 'random', 'strategic', 'turn_expectation']
>>> make_player("greedy", "yatzy")
Greedy('yatzy')
"""
from __future__ import annotations

from typing import Callable

from .batch import Strategy
from .planners import Heuristic, MCPlanner, TurnExpectation
from ..game.rules import Rules, get_rules
from .strategies import Greedy, Optimal, Random, Strategic

__all__ = ["PLAYERS", "strategy_names", "get_strategy", "make_player"]

PLAYERS: dict[str, Callable[..., Strategy]] = {
    p.name: p for p in (Optimal, Random, Greedy, Strategic, TurnExpectation, Heuristic, MCPlanner)}


def strategy_names() -> list[str]:
    """Names `get_strategy` knows."""
    return list(PLAYERS)


def get_strategy(name: str) -> Callable[..., Strategy]:
    """The player class of a strategy name: `get_strategy("greedy")("yahtzee")` is a player."""
    if name not in PLAYERS:
        raise ValueError(f"unknown strategy {name!r}; choose one of: {', '.join(PLAYERS)}")
    return PLAYERS[name]


def make_player(strategy: str | Strategy | Callable[..., Strategy], rules: str | Rules,
                **options) -> Strategy:
    """A player for `rules` from a name, a player class, or a player (checked to match)."""
    rules = get_rules(rules)
    if isinstance(strategy, str):
        strategy = get_strategy(strategy)
    if not (callable(strategy) or isinstance(strategy, Strategy)):
        raise TypeError(f"strategy must be a strategy name, a player class or a player, got "
                        f"{type(strategy).__name__}")
    if isinstance(strategy, type) or not isinstance(strategy, Strategy):
        strategy = strategy(rules, **options)
    elif options:
        raise ValueError(f"options {sorted(options)} need a strategy name or class, not a player")
    if strategy.rules.name != rules.name:
        raise ValueError(f"player {strategy!r} plays {strategy.rules.name!r}, not {rules.name!r}")
    return strategy
