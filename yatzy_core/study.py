"""The strategy study: every player on one rule set from seeded games, as a table and figures.

The table has one row per strategy: games played, mean, its standard error, standard deviation,
min, max and the average of every box and bonus. The fast (vectorized) players play `GAMES`
games, enough for a standard error of the mean below 0.5 (their standard deviations are at
most about 65 points, and 65 / sqrt(25000) = 0.41); `mc_planner`, 5-10 games a second, plays
`SLOW_GAMES` (its standard error, about 6, is in the table). Figures are plotly `go.Figure`s.

>>> s = run_study("yahtzee", strategies=["greedy", "random"], games=200, seed=3)
>>> list(s.table().index), int(s.table().loc["greedy", "games"])
(['greedy', 'random'], 200)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .rules import Rules, get_rules, rule_names
from .simulate import simulate, summary
from .strategies import strategy_names

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
    names = list(strategies or strategy_names())
    frames = {}
    for name in names:
        n = slow_games if name in SLOW else games
        frames[name] = simulate(rules, name, games=n, seed=seed, progress=progress)
    return Study(rules, frames, seed)


def comparison(names=None, **options) -> pd.DataFrame:
    """`Study.table` of every rule set (default: all built-ins) stacked, indexed (rules, strategy)."""
    tables = {name: run_study(name, **options).table() for name in (names or rule_names())}
    return pd.concat(tables, names=["rules", "strategy"])


# ---- figures ----------------------------------------------------------------------------------

def _layout(fig, title: str, x: str, y: str, **extra):
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, template="plotly_white", **extra)
    return fig


def histogram_figure(study: Study, bin_width: int = 5, exact=None):
    """Final-score histograms of every strategy overlaid (probability per point, so different
    numbers of games compare); `exact`, a `distribution.ScoreDistribution`, adds its curve."""
    import plotly.graph_objects as go

    fig = go.Figure()
    for name, frame in study.frames.items():
        fig.add_trace(go.Histogram(
            x=frame["total"], name=f"{name} (mean {frame['total'].mean():.1f})", opacity=0.55,
            histnorm="probability density", xbins=dict(start=0, size=bin_width)))
    top = max(int(f["total"].max()) for f in study.frames.values())
    if exact is not None:
        p = np.asarray(exact.probabilities)
        edges = np.arange(0, len(p) + bin_width, bin_width)
        mass = np.add.reduceat(p, edges[:-1][edges[:-1] < len(p)])
        fig.add_trace(go.Scatter(x=edges[:len(mass)] + bin_width / 2, y=mass / bin_width,
                                 mode="lines", name="optimal, exact", line=dict(color="black")))
        top = max(top, int(np.searchsorted(np.cumsum(p), 0.999)))  # the tail runs to ~1575
    games = sum(len(f) for f in study.frames.values())
    fig = _layout(fig, f"{study.rules.name}: final scores by strategy ({games:,} seeded games)",
                  f"final score (points, bins of {bin_width})", "probability per point",
                  barmode="overlay")
    fig.update_xaxes(range=[0, top + bin_width])
    return fig


def box_bars_figure(study: Study, reference: str = "optimal"):
    """Average points of every box and bonus, the reference strategy beside each other one."""
    import plotly.graph_objects as go

    table = study.table()
    columns = [c for c in table.columns if c not in STAT_COLUMNS]
    order = [reference] + [n for n in table.index if n != reference] if reference in table.index \
        else list(table.index)
    fig = go.Figure([go.Bar(x=columns, y=table.loc[name, columns].round(2), name=name)
                     for name in order])
    return _layout(fig, f"{study.rules.name}: average points per box, {reference} vs the others",
                   "box", "average points per game", barmode="group")


def gap_figure(study: Study, reference: str = "optimal"):
    """Per-box points each strategy loses (or gains) against the reference strategy."""
    import plotly.graph_objects as go

    table = study.table()
    columns = [c for c in table.columns if c not in STAT_COLUMNS]
    others = [n for n in table.index if n != reference]
    fig = go.Figure([go.Bar(x=columns, y=(table.loc[n, columns] - table.loc[reference, columns])
                            .round(2), name=n) for n in others])
    return _layout(fig, f"{study.rules.name}: points per box against {reference}",
                   "box", f"average points minus {reference}'s (points per game)",
                   barmode="group")
