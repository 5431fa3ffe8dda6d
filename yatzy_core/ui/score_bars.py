"""A score distribution as bars in one SVG string, shown in an `ipywidgets.HTML`.

Why not a plotly `FigureWidget`: the coach redraws its outlook at every move. A restyled
FigureWidget sends each change as a message that a page view can miss (seen in Voila: a view
that never drew a bar while the text beside it followed every move), and a new FigureWidget per
move ships plotly's 5 MB module with it. A string is the widget's whole state, so the page always
shows the last one sent, and it weighs tens of kilobytes (a bar per score: about 30 kB for Yatzy
from the start, 85 kB for Yahtzee). Scores less likely than SHOWN get no bar (they would only
squeeze the rest). Hovering a bar shows its score and probability (an SVG `<title>`); the `<svg>`
carries `data-first`, `data-last` and `data-bars` for a test to wait on.

>>> svg = bars_svg(np.array([0, 0.25, 0.5, 0.25]), target=2, title="demo")
>>> svg.count("<rect"), svg.count('fill="#2e7d32"'), 'data-first="1" data-last="3"' in svg
(3, 2, True)
>>> nice_step(0.043, 4), nice_step(275, 6), nice_step(14, 6), nice_step(14, 6, whole=True)
(0.02, 50, 2.5, 5)
"""
from __future__ import annotations

import html
import math

import numpy as np

__all__ = ["bars_svg", "nice_step", "REACHED", "SHORT", "SHOWN", "WIDTH", "HEIGHT"]

REACHED, SHORT = "#2e7d32", "#9e9e9e"        # scores >= target, below it
SHOWN = 1e-7                                 # the least probability drawn: 0.00001% of a bar
WIDTH, HEIGHT = 380, 220                     # fits a phone's 390 px; scales down with the page
LEFT, RIGHT, TOP, BOTTOM = 42, 10, 28, 24    # margins: y labels, title, x labels


def nice_step(span: float, ticks: int, whole: bool = False) -> float:
    """A tick step of 1, 2, 2.5 or 5 times a power of ten giving about `ticks` ticks over `span`;
    `whole`: a whole number of 1, 2 or 5 times a power of ten (scores have no halves)."""
    raw = max(span, 1e-12) / max(ticks, 1)
    if whole:
        raw = max(raw, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in ((1, 2, 5, 10) if whole else (1, 2, 2.5, 5, 10)) if m * power >= raw)
    return int(step) if step >= 1 and float(step).is_integer() else round(step, 12)


def _ticks(lo: float, hi: float, step: float) -> list[float]:
    first = math.ceil(lo / step - 1e-9) * step
    return [round(first + i * step, 12) for i in range(int((hi - first) / step + 1e-9) + 1)]


def bars_svg(probabilities, target: int, title: str) -> str:
    """Bars of P(final = x) for the scores x from the first to the last with probability above
    SHOWN (index = score), those >= `target` green, the rest grey; a dashed line at the target;
    no bars if none."""
    p = np.asarray(probabilities, dtype=float)
    live = np.flatnonzero(p > SHOWN)
    lo, hi = (int(live[0]), int(live[-1])) if len(live) else (0, 0)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = hi - lo + 1
    bars = n if len(live) else 0
    top = float(p[lo:hi + 1].max()) * 1.05 if bars else 1.0
    x_of = lambda score: LEFT + (score - lo) * plot_w / n            # noqa: E731 (left edge of a bar)
    y_of = lambda prob: TOP + plot_h * (1 - prob / top)              # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
             f'style="max-width:100%;height:auto" role="img" aria-label="{html.escape(title)}" '
             f'data-first="{lo if bars else ""}" data-last="{hi if bars else ""}" '
             f'data-bars="{bars}" font-family="sans-serif" font-size="11" fill="#444">',
             f'<text x="{LEFT}" y="16" font-size="13" fill="#222">{html.escape(title)}</text>']
    for tick in _ticks(0, top, nice_step(top, 4)):                   # y: gridlines, in percent
        y = y_of(tick)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e6e6e6"/>'
                     f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{100 * tick:g}%</text>')
    if bars:
        width = plot_w / n
        for score in range(lo, hi + 1):
            y = y_of(p[score])
            parts.append(f'<rect x="{x_of(score):.2f}" y="{y:.2f}" width="{width + 0.3:.2f}" '
                         f'height="{TOP + plot_h - y:.2f}" fill="{REACHED if score >= target else SHORT}">'
                         f'<title>final {score}: {p[score]:.4f}</title></rect>')
        for tick in _ticks(lo, hi, nice_step(n, 6, whole=True)):                 # x: scores, under the bars' middles
            x = x_of(tick) + width / 2
            parts.append(f'<text x="{x:.1f}" y="{HEIGHT - 8}" text-anchor="middle">{tick:g}</text>')
        if lo < target <= hi:
            x = x_of(target)
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{TOP + plot_h}" stroke="#222" '
                         f'stroke-dasharray="3,3"><title>target {target}</title></line>')
    parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#888"/>')
    return "".join(parts) + "</svg>"
