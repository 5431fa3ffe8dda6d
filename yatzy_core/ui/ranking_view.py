"""Every choice ranked, drawn: rows (`play_for.Shown`) in, an HTML table or a bar chart's data out.

Pure functions, no widgets: the explorer (`widgets.Explorer`), the coach and the rules editor
share one table style (`TABLE_CSS`) and one colouring of the best choices, and tests read the
data without a browser.

>>> rows = [Shown("keep 6 6", 12.5, 0.0), Shown("keep 6", 11.25, 1.25)]
>>> labels, values, colours, xrange = rows_bars(rows, top=5)
>>> labels, values, colours == [OTHER_COLOUR, BEST_COLOUR], [round(x, 4) for x in xrange]
(['keep 6', 'keep 6 6'], [11.25, 12.5], True, [11.0625, 12.6875])
>>> value_heading(None), value_heading(120)
('expected points still to come', 'expected final score')
"""
from __future__ import annotations

import html

from ..advice.advisor import Advice
from .play_for import Shown, mean_rows

__all__ = ["TABLE_CSS", "BEST_COLOUR", "OTHER_COLOUR", "value_heading", "rows_table", "advice_table",
           "rows_bars", "bar_data"]

BEST_COLOUR, OTHER_COLOUR = "#2ca02c", "#9bb7d4"
TABLE_CSS = ("<style>.yc-rank-table{border-collapse:collapse;font-family:sans-serif;font-size:13px}"
             ".yc-rank-table td,.yc-rank-table th{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}"
             ".yc-rank-table td:nth-child(2),.yc-rank-table th:nth-child(2){text-align:left}"
             ".yc-rank-table tr.yc-best-row{background:#d9f2d9;font-weight:bold}</style>")


def value_heading(scored: int | None) -> str:
    """What the numbers mean: final scores need the points already on the card."""
    return "expected points still to come" if scored is None else "expected final score"


def rows_table(rows: list[Shown], heading: str, digits: int = 2) -> str:
    """Every choice ranked, as an HTML table with the best ones (ties included) highlighted."""
    if not rows:
        return ""
    head = [f"<tr><th>#</th><th>choice</th><th>{html.escape(heading)}</th><th>loss</th></tr>"]
    for rank, r in enumerate(rows, 1):
        best = " yc-best-row" if r.best else ""
        head.append(f'<tr class="yc-row{best}" data-label="{html.escape(r.label)}"><td>{rank}</td>'
                    f"<td>{html.escape(r.label)}</td><td>{r.value:.{digits}f}</td>"
                    f"<td>{r.loss:.{digits}f}</td></tr>")
    return TABLE_CSS + '<table class="yc-rank-table">' + "".join(head) + "</table>"


def advice_table(advice: list[Advice], scored: int | None = None) -> str:
    """The advisor's ranking as a table: expected points still to come, or final scores."""
    return rows_table(mean_rows(advice, scored), value_heading(scored))


def rows_bars(rows: list[Shown], top: int):
    """Labels, values, colours and x range of the top choices, best at the top of the chart."""
    shown = rows[:top][::-1]
    if not shown:
        return [], [], [], None
    values = [r.value for r in shown]
    low, high = min(values), max(values)
    pad = max(0.15 * (high - low), 0.01 * abs(high), 1e-3)
    return ([r.label for r in shown], values,
            [BEST_COLOUR if r.best else OTHER_COLOUR for r in shown], [low - pad, high + pad])


def bar_data(advice: list[Advice], scored: int | None, top: int):
    """`rows_bars` of the advisor's ranking."""
    return rows_bars(mean_rows(advice, scored), top)
