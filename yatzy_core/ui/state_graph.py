"""The game between turns as a graph, for tiny games: one node per reachable turn state, one edge
per (box, points) choice that leads from a state to a state with one more box used.

A course draws this for a game small enough to solve by hand (chapter 5): it shows that a turn
state is the used boxes and the capped upper total, and that backward induction walks the graph
from the right (the full card, worth 0) to the left (the empty card).

>>> from yatzy_core.game.rulefile import loads
>>> tiny = loads('name = "t"\\nn_dice = 1\\nrolls_per_turn = 1\\nupper_bonus = 0\\n'
...              '[[boxes]]\\nname = "twos"\\nscorer = "upper"\\nface = 2\\n'
...              '[[boxes]]\\nname = "chance"\\nscorer = "chance"\\n')
>>> nodes, edges = state_graph(tiny)
>>> [(mask, upper) for mask, upper, _ in nodes], len(edges)
([(0, 0), (1, 0), (2, 0), (3, 0)], 4)
"""
from __future__ import annotations

import plotly.graph_objects as go

from ..game.rules import Rules, get_rules
from ..engine.solver import Solution
from ..game.states import StateSpace

__all__ = ["state_graph", "state_graph_figure"]

MAX_STATES = 80   # beyond this the picture is unreadable


def state_graph(rules: str | Rules) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, str]]]:
    """Reachable turn states (mask, capped upper total, flag) in layer order, and the edges
    (from node, to node, box name) between them; ValueError for a game too big to draw."""
    rules = get_rules(rules)
    space = StateSpace(rules)
    states = [int(s) for k in range(rules.n_boxes + 1) for s in space.layer(k)]
    if len(states) > MAX_STATES:
        raise ValueError(f"rules {rules.name!r} have {len(states)} reachable turn states; "
                         f"a state graph is drawn for at most {MAX_STATES}")
    position = {s: i for i, s in enumerate(states)}
    nodes = [tuple(int(x) for x in space.decode(s)) for s in states]
    edges = set()
    for i, (mask, upper, flag) in enumerate(nodes):
        for b, box in enumerate(rules.boxes):
            if mask >> b & 1:
                continue
            gains = [c * box.face for c in range(rules.n_dice + 1)] if box.is_upper else [0]
            flags = range(space.n_flags) if box.name == rules.yahtzee_box else [flag]
            for gain in gains:
                for f in flags:
                    nxt = int(space.index(mask | 1 << b, min(upper + gain, rules.upper_cap), f))
                    if nxt in position:
                        edges.add((i, position[nxt], box.name))
    return nodes, sorted(edges)


def state_graph_figure(solution: Solution) -> go.Figure:
    """The state graph of a tiny solved game, each node labelled with its used boxes, capped
    upper total and value V (expected points still to come)."""
    rules = solution.rules
    nodes, edges = state_graph(rules)
    layer = [bin(mask).count("1") for mask, _, _ in nodes]
    row = [layer[:i].count(layer[i]) for i in range(len(nodes))]
    height = [row[i] - (layer.count(layer[i]) - 1) / 2 for i in range(len(nodes))]
    fig = go.Figure()
    for box in rules.box_names:
        xs, ys = [], []
        for a, b, name in edges:
            if name == box:
                xs += [layer[a], layer[b], None]
                ys += [height[a], height[b], None]
        fig.add_scatter(x=xs, y=ys, mode="lines", name=f"write in {box}", line=dict(width=1.5))
    labels = []
    for mask, upper, flag in nodes:
        used = "+".join(n for b, n in enumerate(rules.box_names) if mask >> b & 1) or "empty card"
        value = solution.values[solution.space.index(mask, upper, flag)]
        labels.append(f"{used}<br>upper {upper}{' flag' if flag else ''}<br>V = {value:.4f}")
    fig.add_scatter(x=layer, y=height, text=labels, mode="markers+text", textposition="top center",
                    marker=dict(size=14, color="#3182bd"), name="turn states", hoverinfo="text")
    fig.update_xaxes(tickvals=list(range(rules.n_boxes + 1)), range=[-0.5, rules.n_boxes + 0.5])
    fig.update_yaxes(showticklabels=False, range=[min(height) - 1, max(height) + 1])
    fig.update_layout(title=f"{rules.name}: the turn states and the moves between them",
                      xaxis_title="boxes used (turns played)", yaxis_title="reachable turn states",
                      height=460, template="plotly_white")
    return fig
