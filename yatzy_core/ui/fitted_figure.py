"""A plotly `FigureWidget` that fills the width of its box and follows it (a phone, a turned
screen, a resized window), instead of a fixed 700 px that runs off a phone's screen.

Why it needs help: plotly's FigureWidget is an anywidget, and anywidget draws it before its
element is on the page. plotly then measures a width of 0, falls back to 700 px and never
measures again (anywidget gives its view no "attached" or "resize" message). `fitted` turns on
plotly's own responsive mode (plotly measures its box again on every window resize) and puts a
`Refit` under the figure: an empty widget as wide as the box that fires one window resize each
time that width changes, the first time included (when the page shows the box, after plotly drew).
"""
from __future__ import annotations

import anywidget
import ipywidgets as W
import plotly.graph_objects as go

__all__ = ["Refit", "fitted"]

REFIT_ESM = r"""
function render({ el }) {
  el.classList.add("yc-refit");
  let width = -1;
  const watch = new ResizeObserver(() => {
    if (el.clientWidth === width) return;
    width = el.clientWidth;
    window.dispatchEvent(new Event("resize"));   // plotly's responsive figures measure again
  });
  watch.observe(el);
  return () => watch.disconnect();
}
export default { render };
"""


class Refit(anywidget.AnyWidget):
    """Fires a window resize whenever its own width (its box's) changes; draws nothing."""

    _esm = REFIT_ESM
    _css = ".yc-refit { height: 0; width: 100%; }"


def fitted(fig: go.FigureWidget, **layout) -> W.VBox:
    """`fig` (left without a width of its own) in a box that it fills; `layout`: the box's
    `ipywidgets.Layout` (e.g. flex, max_width)."""
    if fig.layout.width is not None:
        raise ValueError(f"fig must leave its width to the box, got width={fig.layout.width}")
    fig._config = {**fig._config, "responsive": True}
    fig.layout.autosize = True
    return W.VBox([fig, Refit()], layout=W.Layout(**layout))
