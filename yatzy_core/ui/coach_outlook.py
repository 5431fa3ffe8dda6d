"""Your chances from here: the exact distribution of the final score from the position on screen
(`midgame.position_distribution`, optimal play from now on) as a small plot, and P(final >= a
target you type).

A forward pass from early in a game takes seconds, so it runs on a worker thread
(`background.Latest`): a newer move supersedes a pass not yet shown, and a stale result is
never drawn. `chance_text` and `outlook_figure` are pure and tested on exact values.

>>> import numpy as np
>>> from yatzy_core.objectives.distribution import ScoreDistribution
>>> chance_text(ScoreDistribution("yatzy", np.array([0, 0.25, 0.5, 0.25])), 2)
'P(final score ≥ 2) = 75.0% · mean 2.0 · 25% of games ≤ 1, 75% ≤ 2'
"""
from __future__ import annotations

import copy
import html
import threading

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go

from ..game.checks import whole_number
from ..objectives.distribution import ScoreDistribution
from ..objectives.midgame import position_distribution
from .background import Latest

__all__ = ["Outlook", "game_distribution", "chance_text", "outlook_figure"]

DEFAULT_TARGET = 250
HEIGHT = 220
WIDTH = 380      # fits a phone's 390 px


def game_distribution(game) -> ScoreDistribution:
    """The final-score distribution of a `coach.Game` from where it stands (a point mass once over)."""
    if game.over:
        mass = np.zeros(game.total + 1)
        mass[game.total] = 1.0
        return ScoreDistribution(game.rules.name, mass)
    return position_distribution(game.position, game.solution, points=game.total)


def _check_target(target) -> int:
    return whole_number("target", target)


def chance_text(dist: ScoreDistribution, target: int) -> str:
    """One line: P(final >= target), the mean and the quartiles."""
    target = _check_target(target)
    return (f"P(final score ≥ {target}) = {100 * dist.p_at_least(target):.1f}% · "
            f"mean {dist.mean:.1f} · 25% of games ≤ {dist.quantile(0.25)}, 75% ≤ {dist.quantile(0.75)}")


def outlook_figure(dist: ScoreDistribution, target: int) -> go.Figure:
    """Bars of P(final = x) over the scores still possible, those ≥ target coloured."""
    target = _check_target(target)
    live = np.flatnonzero(dist.probabilities > 1e-12)
    lo, hi = int(live[0]), int(live[-1])
    x = np.arange(lo, hi + 1)
    p = dist.probabilities[lo:hi + 1]
    colours = np.where(x >= target, "#2e7d32", "#9e9e9e")
    fig = go.Figure(go.Bar(x=x, y=p, marker_color=colours, marker_line_width=0,
                           hovertemplate="final %{x}: %{y:.4f}<extra></extra>"))
    fig.update_layout(height=HEIGHT, width=WIDTH, margin=dict(l=40, r=10, t=30, b=30), bargap=0,
                      title=dict(text="Final score from here (optimal play)", font_size=13),
                      xaxis_title=None, yaxis_title=None, showlegend=False)
    return fig


class Outlook:
    """The plot and the target box; `show(game)` recomputes in the background."""

    def __init__(self, on_error, enabled: bool = True):
        self.enabled = enabled
        self.distribution: ScoreDistribution | None = None
        self.latest = Latest(on_error=on_error)
        empty = outlook_figure(ScoreDistribution("", np.array([1.0])), 0)
        empty.data[0].update(x=[], y=[], marker_color=[])      # nothing drawn until a pass is done
        self.fig = go.FigureWidget(empty)
        self.target_w = W.BoundedIntText(value=DEFAULT_TARGET, min=0, max=10_000, description="Target",
                                         layout=W.Layout(width="160px"))
        self.target_w.add_class("yc-coach-target")
        self.chance_w = W.HTML("")
        self.chance_w.add_class("yc-coach-chance")
        self.fig_box = W.Box([self.fig], layout=W.Layout(max_width="100%", overflow="hidden"))
        self.widget = W.VBox([self.target_w, self.chance_w, self.fig_box],
                             layout=W.Layout(max_width="100%", overflow="hidden"))
        self.widget.add_class("yc-coach-outlook")
        self.target_w.observe(lambda _: self._draw(), "value")
        self._lock, self.shown = threading.Lock(), 0

    def show(self, game) -> None:
        """Compute the distribution from the game's position on the worker, then draw it."""
        self.widget.layout.display = None if self.enabled else "none"
        if not self.enabled:
            return
        with self._lock:
            self.shown += 1                   # only the newest position may be drawn
            mine = self.shown
        if game.over:                          # a point mass: no pass to wait for
            self.latest.submit(lambda checkpoint: None)    # a pass still running is stale now
            self._publish(mine, game_distribution(game))
            return
        self.chance_w.value = "<i>computing your chances&hellip;</i>"
        game = copy.copy(game)                 # position and total as they are now

        def job(checkpoint):
            dist = game_distribution(game)
            checkpoint()                       # a newer move came: never show this one
            self._publish(mine, dist)
        self.latest.submit(job)

    def _publish(self, mine: int, dist) -> None:
        with self._lock:                       # the check and the drawing as one step
            if mine != self.shown:
                return
            self.distribution = dist
            self._draw()

    def _draw(self) -> None:
        dist = self.distribution
        if dist is None:
            return
        target = int(self.target_w.value)
        figure = outlook_figure(dist, target)
        with self.fig.batch_update():
            self.fig.data[0].x = figure.data[0].x
            self.fig.data[0].y = figure.data[0].y
            self.fig.data[0].marker.color = figure.data[0].marker.color
        self.chance_w.value = f"<b>{html.escape(chance_text(dist, target))}</b>"
