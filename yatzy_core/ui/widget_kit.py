"""Three small habits every widget app of the package shares (the explorer, the coach, the rules
editor): stable CSS classes as handles for the browser test, rows that wrap on a phone, and a
figure whose drawn state reaches a page that connects later.

>>> import ipywidgets as W
>>> sorted(classed(W.HTML(), "yc-best", "yc-row")._dom_classes)
['yc-best', 'yc-row']
>>> wrapping(W.HTML(), W.HTML(), reverse=True).layout.flex_flow
'row wrap-reverse'
"""
from __future__ import annotations

from copy import deepcopy

import ipywidgets as W
import plotly.graph_objects as go

__all__ = ["classed", "wrapping", "publish"]


def classed(widget: W.DOMWidget, *css: str) -> W.DOMWidget:
    """The widget with stable CSS classes added (handles for the browser test)."""
    for c in css:
        widget.add_class(c)
    return widget


def wrapping(*children: W.Widget, reverse: bool = False) -> W.HBox:
    """A row whose children move onto a new line where the page is too narrow (a phone) instead
    of being squeezed (dice stacked one per row, clipped buttons). `reverse`: the lines stack
    upwards, so the last child (the chart) comes first once the row no longer fits on one line."""
    return W.HBox(list(children), layout=W.Layout(flex_flow="row wrap-reverse" if reverse else "row wrap"))


def publish(fig: go.FigureWidget) -> None:
    """Store the figure in its synced widget state, as plotly does when it is displayed: updates
    reach open views as messages only, so a page that connects later (Voilà) would draw the
    figure as first displayed."""
    fig._widget_data = deepcopy(fig._data)
    fig._widget_layout = deepcopy(fig._layout_obj._props)
