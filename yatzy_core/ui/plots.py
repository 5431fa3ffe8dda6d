"""Every figure of the project, and text tables: each figure function returns a plotly go.Figure.

The notebooks only call these and show the result, so a figure can be checked through its data
(`fig.data`, `fig.layout`) rather than its pixels. Every figure has a title and axis titles with
units. plotly is an optional dependency (the `notebooks` and `dev` extras): only `yatzy_core.ui`
imports it, so the core imports without it.

>>> fig = layer_sizes_figure(["yahtzee-no-bonus"])
>>> fig.data[0].y[:4], sum(fig.data[0].y)
((1, 43, 669, 4551), 357632)
"""
from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
import plotly.graph_objects as go

from ..game.dice import dice_of, dice_space
from ..game.probability import face_matrix_float, max_count_matrix, to_float
from ..game.rules import get_rules
from ..engine.solver import Solution
from ..game.states import StateSpace, layer_sizes
from ..players.study import STAT_COLUMNS, Study

__all__ = ["NOTEBOOK_RENDERER", "text_table", "single_roll_figure", "face_matrix_figure",
           "max_count_figure", "layer_sizes_figure", "turn_graph_figure", "open_box_value_figure",
           "open_box_gains", "upper_total_value_figure", "score_distributions_figure",
           "histogram_figure", "box_bars_figure", "gap_figure"]

NOTEBOOK_RENDERER = "plotly_mimetype+notebook_connected"  # live in JupyterLab, HTML on nbviewer
_NUMBER = re.compile(r"^[-+]?[\d,]+(\.\d+)?(/\d+)?%?$")


def text_table(header, rows, floats: int = 4) -> str:
    """Rows as a fixed-width text table, floats rounded, numeric columns ("-" for none) right-
    aligned: output that reads well and that nbval can compare exactly.

    >>> print(text_table(("rules", "score"), [("yatzy", 248.43998), ("yahtzee", 254.58773)]))
    rules       score
    -------  --------
    yatzy    248.4400
    yahtzee  254.5877
    """
    def cell(x):
        return f"{x:.{floats}f}" if isinstance(x, (float, np.floating)) else str(x)

    cells = [[cell(x) for x in row] for row in rows]
    columns = range(len(header))
    widths = [max([len(str(header[i]))] + [len(r[i]) for r in cells]) for i in columns]
    numeric = [any(_NUMBER.match(r[i]) for r in cells)
               and all(_NUMBER.match(r[i]) or r[i] == "-" for r in cells) for i in columns]

    def line(values):
        return "  ".join(v.rjust(w) if num else v.ljust(w)
                         for v, w, num in zip(values, widths, numeric)).rstrip()
    return "\n".join([line([str(h) for h in header]), line(["-" * w for w in widths])]
                     + [line(r) for r in cells])


def _layout(fig: go.Figure, title: str, x: str, y: str, **extra) -> go.Figure:
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, template="plotly_white", **extra)
    return fig


# ---- chapter 1: rules and scoring --------------------------------------------------------------

def single_roll_figure(names: Iterable[str]) -> go.Figure:
    """Expected points of each box from a single roll of all the dice, one bar group per rule set.

    >>> fig = single_roll_figure(["yahtzee"])
    >>> dict(zip(fig.data[0].x, fig.data[0].y))["chance"]
    17.5
    """
    fig = go.Figure()
    for name in names:
        rules = get_rules(name)
        mean = rules.dice.roll_probabilities() @ rules.score_table
        fig.add_bar(x=list(rules.box_names), y=mean.round(6).tolist(), name=name)
    return _layout(fig, "Expected points of each box when one roll of five dice is scored there",
                   "box", "expected points (points)", barmode="group")


# ---- chapter 2: counting -----------------------------------------------------------------------

def face_matrix_figure(rolls: Iterable[int] = (1, 2)) -> go.Figure:
    """Heat maps of the i -> j matrices, P(j dice of the chosen face | i kept), one per number of
    rolls, with buttons to switch between them.

    >>> fig = face_matrix_figure()
    >>> [round(float(fig.data[k].z[4][5]), 4) for k in range(2)]
    [0.1667, 0.3056]
    """
    rolls = list(rolls)
    fig = go.Figure()
    for k, r in enumerate(rolls):
        z = face_matrix_float(r)
        fig.add_heatmap(z=z, x=list(range(6)), y=list(range(6)), zmin=0, zmax=1, visible=k == 0,
                        colorscale="Blues", colorbar_title="probability", text=np.round(z, 4),
                        texttemplate="%{text}", name=f"{r} roll{'s' * (r > 1)}")
    buttons = [dict(label=trace.name, method="update",
                    args=[{"visible": [j == k for j in range(len(rolls))]}])
               for k, trace in enumerate(fig.data)]
    fig.update_layout(updatemenus=[dict(buttons=buttons, direction="right", x=0, y=1.12,
                                        xanchor="left", showactive=True)])
    fig.update_yaxes(autorange="reversed")
    return _layout(fig, "Dice of the chosen face: i kept before, j after rolling the rest",
                   "j: dice of the face after the roll(s) (count)",
                   "i: dice of the face kept (count)")


def max_count_figure(rolls: int = 3) -> go.Figure:
    """P(the most common face shows j dice) after each roll of a turn, always keeping that face.

    >>> fig = max_count_figure(3)
    >>> [trace.name for trace in fig.data], round(fig.data[2].y[-1], 5)
    (['after roll 1', 'after roll 2', 'after roll 3'], 0.04603)
    """
    matrix = to_float(max_count_matrix())
    row = matrix[0]
    fig = go.Figure()
    for k in range(1, rolls + 1):
        fig.add_bar(x=list(range(1, len(row))), y=row[1:].tolist(), name=f"after roll {k}")
        row = row @ matrix
    return _layout(fig, "Chasing a Yahtzee: dice showing the most common face",
                   "dice showing the most common face (count)", "probability (0 to 1)",
                   barmode="group")


# ---- chapter 3: states -------------------------------------------------------------------------

def layer_sizes_figure(names: Iterable[str]) -> go.Figure:
    """Reachable turn states per number of used boxes, one line per rule set (log scale)."""
    fig = go.Figure()
    for name in names:
        sizes = layer_sizes(StateSpace(get_rules(name)))
        fig.add_scatter(x=list(range(len(sizes))), y=tuple(sizes), mode="lines+markers", name=name)
    return _layout(fig, "Reachable turn states per layer", "boxes used (turns played)",
                   "reachable states (count, log scale)", yaxis_type="log")


# ---- chapter 4: one turn -----------------------------------------------------------------------

def turn_graph_figure(n_dice: int = 2, faces: int = 3, rolls_per_turn: int = 3) -> go.Figure:
    """One turn of a small game as an expectimax graph: keepers are chance nodes (circles, an
    average over the rolls they can become), rolls are decision nodes (squares, the best keeper
    inside them), and the last roll is scored (stars).

    >>> fig = turn_graph_figure(2, 3)
    >>> [trace.name for trace in fig.data]
    ['roll the free dice', 'keep some of the dice', 'keepers (chance)', 'rolls (decision)', 'score']
    >>> len(fig.data[2].x), len(fig.data[3].x)   # start + 2 x 10 keepers, 3 x 6 rolls
    (21, 18)
    """
    dice = dice_space(n_dice, faces)
    stages = ["start"] + ["roll", "keep"] * (rolls_per_turn - 1) + ["roll"]

    def size(kind):
        return 1 if kind == "start" else dice.n_rolls if kind == "roll" else dice.n_keepers

    def y_of(kind, i):   # the nodes of a column, centred on 0
        return (size(kind) - 1) / 2 - i

    nodes = {"keep": ([], [], []), "roll": ([], [], [])}   # x, y, label
    edges = {"roll": ([], []), "keep": ([], [])}           # into a roll column / a keep column
    for col, kind in enumerate(stages):
        xs, ys, labels = nodes["roll" if kind == "roll" else "keep"]
        for i in range(size(kind)):
            counts = dice.rolls[i] if kind == "roll" else dice.keepers[i]
            xs.append(col), ys.append(y_of(kind, i))
            labels.append("".join(map(str, dice_of(counts))) or "∅")
        if col == 0:
            continue
        prev = stages[col - 1]
        ex, ey = edges[kind]
        for k, r in dice.pairs:          # keeper k is inside roll r
            if kind == "roll" and (prev == "keep" or k == 0):
                ex += [col - 1, col, None]
                ey += [y_of(prev, k), y_of("roll", r), None]
            elif kind == "keep":
                ex += [col - 1, col, None]
                ey += [y_of("roll", r), y_of("keep", k), None]
    fig = go.Figure()
    for kind, name, color in (("roll", "roll the free dice", "#9ecae1"),
                              ("keep", "keep some of the dice", "#fdae6b")):
        fig.add_scatter(x=edges[kind][0], y=edges[kind][1], mode="lines", name=name,
                        line=dict(width=0.6, color=color), hoverinfo="skip")
    for kind, name, symbol, color in (("keep", "keepers (chance)", "circle", "#3182bd"),
                                      ("roll", "rolls (decision)", "square", "#e6550d")):
        xs, ys, labels = nodes[kind]
        fig.add_scatter(x=xs, y=ys, text=labels, mode="markers+text", textposition="top center",
                        marker=dict(symbol=symbol, size=11, color=color), name=name)
    fig.add_scatter(x=[len(stages)] * dice.n_rolls, y=[y_of("roll", r) for r in range(dice.n_rolls)],
                    mode="markers", marker=dict(symbol="star", size=10, color="#31a354"), name="score")
    fig.update_xaxes(tickvals=list(range(len(stages) + 1)), ticktext=stages + ["score"])
    fig.update_yaxes(showticklabels=False)
    return _layout(fig, f"One turn with {n_dice} dice of {faces} faces as an expectimax graph",
                   "stage of the turn (left to right)", "nodes (one per multiset of dice)",
                   height=520)


# ---- chapter 5: what the values teach ----------------------------------------------------------

def open_box_value_figure(pairs: Iterable[tuple[Solution, str]]) -> go.Figure:
    """Points an open box is worth, V(state) - V(same state with the box used, scoring 0), as the
    mean (bars: least and most) over the reachable states with the box open, against the number
    of boxes used; one line per (solution, box name).

    >>> from yatzy_core.engine.solver import solve
    >>> y = get_rules("yahtzee")
    >>> mini = y.with_(name="mini", yahtzee_box=None,
    ...                boxes=tuple(b for b in y.boxes if b.name in ("ones", "chance")))
    >>> fig = open_box_value_figure([(solve(mini, progress=False, backend="numpy"), "chance")])
    >>> fig.data[0].x, [round(v, 4) for v in fig.data[0].y]
    ((0, 1), [24.3528, 23.3333])
    """
    fig = go.Figure()
    for sol, box in pairs:
        used, gains = open_box_gains(sol, box)
        means = np.array([g.mean() for g in gains])
        lows, highs = np.array([g.min() for g in gains]), np.array([g.max() for g in gains])
        fig.add_scatter(x=used, y=means.tolist(), mode="lines+markers", name=f"{sol.rules.name}: {box}",
                        error_y=dict(type="data", symmetric=False, array=(highs - means).tolist(),
                                     arrayminus=(means - lows).tolist(), thickness=1))
    return _layout(fig, "What an open box is worth (mean over states; bars: least and most)",
                   "boxes already used (count)", "expected points it adds (points)")


def open_box_gains(sol: Solution, box: str) -> tuple[list[int], list[np.ndarray]]:
    """Per number of used boxes: V(s) - V(s with `box` used, same upper total and flag) for every
    reachable state s in which the box is open."""
    space, b = sol.space, sol.rules.box_index(box)
    used, gains = [], []
    for k in range(sol.rules.n_boxes):
        states = space.layer(k)
        mask, upper, flag = space.decode(states)
        open_ = (mask >> b) & 1 == 0
        if open_.any():
            after = space.index(mask[open_] | (1 << b), upper[open_], flag[open_])
            used.append(k)
            gains.append(sol.values[states[open_]] - sol.values[after])
    return used, gains


def upper_total_value_figure(solution: Solution, *used: Iterable[str]) -> go.Figure:
    """Value of a state against its upper total, for every reachable total, one line per list of
    used boxes: what being close to the upper bonus is worth.

    V counts the points still to come; at 63 the bonus is already earned, so it is added back
    there to compare like with like (points to come, the upper bonus included).

    >>> from yatzy_core.engine.cache import get_solution
    >>> fig = upper_total_value_figure(get_solution("yahtzee", progress=False),
    ...                                ["ones", "twos", "threes", "fours", "fives"])
    >>> fig.data[0].x[:3], round(fig.data[0].y[-1] - fig.data[0].y[0], 4)
    ((0, 1, 2), 35.0)
    """
    rules, space = solution.rules, solution.space
    fig = go.Figure()
    for boxes in map(list, used):
        mask = sum(1 << rules.box_index(name) for name in boxes)
        totals = np.flatnonzero(space.upper_reach[mask])
        values = [solution.value(mask, int(u))
                  + (rules.upper_bonus if u >= rules.upper_bonus_threshold else 0) for u in totals]
        fig.add_scatter(x=totals.tolist(), y=values, mode="lines+markers",
                        name="used: " + (", ".join(boxes) or "nothing"))
    fig.add_vline(x=rules.upper_bonus_threshold, line_dash="dot",
                  annotation_text=f"bonus {rules.upper_bonus} at {rules.upper_bonus_threshold}")
    return _layout(fig, f"{rules.name}: value of a state by its upper total",
                   "upper total so far (points; 63 stands for 63 or more)",
                   "expected points to come, upper bonus included (points)")


# ---- chapter 6: strategies compared ------------------------------------------------------------

def score_distributions_figure(distributions: Iterable, cumulative: bool = False,
                               tail: float = 1e-6) -> go.Figure:
    """Exact final-score distributions (`distribution.ScoreDistribution`s) as lines on one figure:
    P(score = x), or P(score >= x) when cumulative; each cut where less than `tail` lies beyond.

    >>> from yatzy_core.objectives.distribution import ScoreDistribution
    >>> coins = ScoreDistribution("two coins", np.array([0.25, 0.5, 0.25]))
    >>> fig = score_distributions_figure([coins], cumulative=True)
    >>> fig.data[0].name, fig.data[0].y
    ('two coins (mean 1.00, sd 0.71)', (1.0, 0.75, 0.25))
    """
    fig = go.Figure()
    for d in distributions:
        p = np.asarray(d.probabilities, dtype=float)
        y = p[::-1].cumsum()[::-1] if cumulative else p
        end = d.quantile(1 - tail) + 1
        fig.add_scatter(x=list(range(end)), y=y[:end].tolist(), mode="lines",
                        name=f"{d.rules_name} (mean {d.mean:.2f}, sd {d.std:.2f})")
    what = "P(score ≥ x)" if cumulative else "P(score = x)"
    return _layout(fig, f"Exact final score distribution under optimal play: {what}",
                   "final score x (points)", f"{what} (probability)")


def _study_columns(table) -> list[str]:
    return [c for c in table.columns if c not in STAT_COLUMNS]


def histogram_figure(study: Study, bin_width: int = 5, exact=None):
    """Final-score histograms of every strategy overlaid (probability per point, so different
    numbers of games compare); `exact`, a `distribution.ScoreDistribution`, adds its curve."""
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
    table = study.table()
    columns = _study_columns(table)
    order = [reference] + [n for n in table.index if n != reference] if reference in table.index \
        else list(table.index)
    fig = go.Figure([go.Bar(x=columns, y=table.loc[name, columns].round(2), name=name)
                     for name in order])
    return _layout(fig, f"{study.rules.name}: average points per box, {reference} vs the others",
                   "box", "average points per game", barmode="group")


def gap_figure(study: Study, reference: str = "optimal"):
    """Per-box points each strategy loses (or gains) against the reference strategy."""
    table = study.table()
    columns = _study_columns(table)
    others = [n for n in table.index if n != reference]
    fig = go.Figure([go.Bar(x=columns, y=(table.loc[n, columns] - table.loc[reference, columns])
                            .round(2), name=n) for n in others])
    return _layout(fig, f"{study.rules.name}: points per box against {reference}",
                   "box", f"average points minus {reference}'s (points per game)",
                   barmode="group")
