"""The strategy study: every player on one rule set from seeded games, as a table and figures.

The table has one row per strategy: games played, mean, its standard error, standard deviation,
min, max and the average of every box and bonus. The fast (vectorized) players play `GAMES`
games, enough for a standard error of the mean below 0.5 (their standard deviations are at
most about 65 points, and 65 / sqrt(25000) = 0.41); `mc_planner`, 5-10 games a second, plays
`SLOW_GAMES` (its standard error, about 6, is in the table). Its figures are in `ui.plots`.

>>> s = run_study("yahtzee", strategies=["greedy", "random"], games=200, seed=3)
>>> list(s.table().index), int(s.table().loc["greedy", "games"])
(['greedy', 'random'], 200)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..game.checks import instance_of
from ..game.rules import Rules, get_rules, rule_names
from .simulation import simulate, summary
from .registry import strategy_names

__all__ = ["GAMES", "SLOW_GAMES", "SLOW", "STAT_COLUMNS", "Study", "run_study", "comparison"]

GAMES = 25_000     # per fast player: standard error of the mean below 0.5
SLOW_GAMES = 40    # per slow player (mc_planner, 5-10 games a second: 4-8 s)
SLOW = ("mc_planner",)
STAT_COLUMNS = ["games", "mean", "sem", "std", "min", "max"]


@dataclass(frozen=True)
class Study:
    """Seeded games of several players on one rule set: `frames[name]` has one row per game."""

    rules: Rules
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)
    seed: int = 0

    def table(self) -> pd.DataFrame:
        """One row per strategy: games, mean, sem, std, min, max, then every column's average."""
        rows = {}
        for name, frame in self.frames.items():
            stats = summary(frame)
            row = {"games": len(frame)}
            row.update({k: stats.loc["total", k] for k in STAT_COLUMNS[1:]})
            row.update(stats["mean"].drop("total").to_dict())
            rows[name] = row
        table = pd.DataFrame.from_dict(rows, orient="index")
        table["games"] = table["games"].astype(int)
        table.index.name = "strategy"
        return table

    def seconds(self) -> dict[str, float]:
        """Wall time each player took, from the frames' attrs."""
        return {name: frame.attrs.get("seconds", float("nan")) for name, frame in self.frames.items()}


def run_study(rules: str | Rules, strategies=None, games: int = GAMES,
              slow_games: int = SLOW_GAMES, seed: int = 0, progress: bool = False) -> Study:
    """Play every strategy (default: all) on one rule set, `games` games each (`slow_games` for
    mc_planner), all from the same seed."""
    rules = get_rules(rules)
    instance_of("strategies", strategies, (list, tuple), "a list of strategy names", optional=True)
    names = list(strategies or strategy_names())
    frames = {}
    for name in names:
        n = slow_games if name in SLOW else games
        frames[name] = simulate(rules, name, games=n, seed=seed, progress=progress)
    return Study(rules, frames, seed)


def comparison(names=None, **options) -> pd.DataFrame:
    """`Study.table` of every rule set (default: all built-ins) stacked, indexed (rules, strategy)."""
    instance_of("names", names, (list, tuple), "a list of rule set names", optional=True)
    tables = {name: run_study(name, **options).table() for name in (names or rule_names())}
    return pd.concat(tables, names=["rules", "strategy"])
