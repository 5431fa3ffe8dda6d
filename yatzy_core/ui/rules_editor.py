"""The rules editor: change a rule, and watch the optimal expected score, the score distribution
and the best move at one position change.

Three layers, as in the explorer (`widgets.py`):

1. the model is plain Python: `variants.variant` makes the changed rules (checked like a rule
   file), `solve` solves them, `advise` ranks the choices at the teacher's position;
2. `RulesEditor` (a traitlets `HasTraits`) holds the settings and the results, and builds its
   widgets and one `go.FigureWidget` once;
3. a widget change calls `request(...)`, which sets the settings and re-solves on a worker thread
   (`background.Latest`): a newer change supersedes a solve still running, which stops at its
   next layer, and only the newest result is shown (drawn on the kernel's thread: widgets are not
   thread-safe; only the status line and progress bar are set from the worker). `update(...)`
   does the same in the calling thread and returns when the results are there: cells and tests
   use it.

Solutions stay in memory (the last few rule sets; a 5-dice solve takes well under a second).
The exact score distributions take a forward pass per rule set (`distribution.score_distribution`,
cached on disk by the rules' content); they are drawn only when `distributions` is on (a check
box), because that pass still takes many seconds per new rule set.

>>> ed = RulesEditor(base="yatzy", dice="11156", rolls_left=2)
>>> round(ed.update(upper_bonus=0).change, 4), ed.rules.name
(-37.2913, 'yatzy, upper_bonus 0')
"""
from __future__ import annotations

import functools
import html
import time
from collections import OrderedDict
from threading import Lock
from typing import NamedTuple

import ipywidgets as W
import plotly.graph_objects as go
from traitlets import Bool, Dict, HasTraits, Instance, Int, Tuple, Unicode

from ..advice.advisor import Advice, advise
from ..engine.position import Position, parse_dice, rerolls_left
from ..game.rules import Rules, get_rules, rule_names
from ..engine.solver import Solution, solve
from ..engine.turn import TIE
from ..game.variants import KNOBS, knobs, point_boxes, variant
from .background import Latest
from .ranking_view import TABLE_CSS
from .widget_kit import classed, publish

__all__ = ["RulesEditor", "Result", "moves_at", "moves_table", "EDITABLE"]

POSITION = ("dice", "rolls_left", "used", "upper_total")
INPUTS = ("base",) + tuple(KNOBS) + ("points",) + POSITION + ("distributions",)
EDITABLE = tuple(n for n in rule_names(include_new=True) if get_rules(n).n_dice <= 5)  # quick ones
KEPT = 8   # solutions kept in memory, shared by every editor of the process
_SOLVED: OrderedDict[Rules, Solution] = OrderedDict()
_DISTRIBUTIONS: dict[Rules, object] = {}
_LOCK = Lock()


class Result(NamedTuple):
    """What one solve shows: the base and changed rules' values, top moves and distributions."""

    rules: Rules | None
    base_expected: float | None = None
    expected: float | None = None
    before: list = []
    after: list = []
    notes: str = ""
    base_distribution: object = None
    distribution: object = None
    seconds: float = 0.0
    message: str = ""


# ---- pure model and view functions ------------------------------------------------------------

def moves_at(rules: Rules, solution: Solution, dice, rolls_left: int, used=(), upper_total: int = 0,
             top: int = 3) -> tuple[list[Advice], str]:
    """The top choices at a position under these rules, and a note when the rerolls left had to be
    cut to what the rules allow (one roll a turn leaves none)."""
    allowed = min(rolls_left, rules.rolls_per_turn - 1)
    note = (f"{rules.name}: {rerolls_left(allowed)} (the rules allow no more)"
            if allowed != rolls_left else "")
    position = Position.make(rules, used=used, upper_total=upper_total, dice=dice, rolls_left=allowed)
    return advise(position, solution)[:top], note


def moves_table(before: list[Advice], after: list[Advice]) -> str:
    """The top choices under the base rules and under the changed ones, side by side (HTML)."""
    def cells(a):
        if a is None:
            return "<td></td><td></td>"
        bold = "font-weight:bold;" if a.loss <= TIE else ""
        return f'<td style="{bold}text-align:left">{html.escape(a.label)}</td><td>{a.expected:.2f}</td>'
    rows = ["<tr><th>#</th><th>base rules</th><th>points to come</th>"
            "<th>changed rules</th><th>points to come</th></tr>"]
    for i in range(max(len(before), len(after))):
        b = before[i] if i < len(before) else None
        a = after[i] if i < len(after) else None
        rows.append(f"<tr><td>{i + 1}</td>{cells(b)}{cells(a)}</tr>")
    return TABLE_CSS + '<table class="yc-rank-table">' + "".join(rows) + "</table>"


class _Bar:
    """A tqdm-like bar for `solve`: drives an ipywidgets progress bar, and stops a stale solve."""

    def __init__(self, widget: W.FloatProgress, checkpoint):
        self.widget, self.checkpoint = widget, checkpoint

    def reset(self, total: int) -> None:
        self.widget.max, self.widget.value = max(total, 1), 0

    def update(self, n: int) -> None:
        self.checkpoint()                      # raises Superseded when a newer change came
        self.widget.value = min(self.widget.value + n, self.widget.max)


def _never() -> None:
    """The checkpoint of a solve nothing can supersede (`update`)."""


# ---- the editor --------------------------------------------------------------------------------

class RulesEditor(HasTraits):
    """A built-in rule set, some rules changed, and what that does to optimal play."""

    base = Unicode("yatzy")                # the built-in rule set the changes start from
    upper_bonus_threshold = Int(63)
    upper_bonus = Int(50)
    yahtzee_bonus = Int(0)
    rolls_per_turn = Int(3)
    forced_order = Bool(False)
    points = Dict()                        # box -> fixed points, for boxes that score fixed points
    dice = Tuple((1, 1, 1, 5, 6))          # the teacher's position
    rolls_left = Int(2)
    used = Tuple(())
    upper_total = Int(0)
    distributions = Bool(False)            # draw the exact score distributions (slow today)
    top = Int(3)                           # choices shown at the position

    result = Instance(Result, allow_none=True)

    def __init__(self, background: bool = True, **params):
        super().__init__()
        self._syncing = False
        self.background = background       # widget changes solve on a worker thread
        self.latest = Latest(on_error=self._show_error)
        self._build()
        params.setdefault("base", self.base)
        self.update(**params)

    # -- setting inputs
    def _set(self, params: dict) -> None:
        unknown = set(params) - set(INPUTS)
        if unknown:
            raise ValueError(f"unknown editor inputs {sorted(unknown)}; use {', '.join(INPUTS)}")
        if "dice" in params:
            params["dice"] = parse_dice(params["dice"])
        if isinstance(params.get("used"), str):
            params["used"] = tuple(n.strip() for n in params["used"].split(",") if n.strip())
        if "base" in params:                   # a new base: its own rules, unless given too
            for key, value in knobs(get_rules(params["base"])).items():
                params.setdefault(key, value)
        for name, value in params.items():
            setattr(self, name, tuple(value) if name in ("dice", "used") else value)
        self._sync_inputs()

    def update(self, **params) -> "RulesEditor":
        """Set any of INPUTS at once, re-solve in this thread and show the result."""
        self.latest.supersede()                # a result still on its way is stale now
        self._set(params)
        self._show(self._compute(_never))
        return self

    def request(self, **params) -> None:
        """What a widget change does: set the inputs now, re-solve on the worker (newest wins).
        Unreadable input (dice typed as "1x") is shown as the message, not raised."""
        try:
            self._set(params)
        except ValueError as err:
            self._show_error(err)
            return
        if not self.background:
            self._show(self._compute(_never))
            return
        self.latest.submit(lambda checkpoint: functools.partial(self._show, self._compute(checkpoint)))

    # -- the model
    def _compute(self, checkpoint) -> Result:
        start = time.perf_counter()
        try:
            base = get_rules(self.base)
            rules = variant(base, points=self.points, **{k: getattr(self, k) for k in KNOBS})
        except (ValueError, TypeError) as err:
            return Result(None, message=f"These rules cannot be played: {err}")
        base_solution = self._solution(base, checkpoint)
        solution = self._solution(rules, checkpoint)
        try:
            spot = dict(dice=self.dice, rolls_left=self.rolls_left, used=self.used,
                        upper_total=self.upper_total, top=self.top)
            before, note_b = moves_at(base, base_solution, **spot)
            after, note_a = moves_at(rules, solution, **spot)
            notes, message = "; ".join(n for n in (note_b, note_a) if n), ""
        except ValueError as err:
            before, after, notes, message = [], [], "", f"Impossible position: {err}"
        dists = (self._distribution(base, base_solution), self._distribution(rules, solution)) \
            if self.distributions else (None, None)
        return Result(rules, base_solution.expected_score, solution.expected_score, before, after,
                      notes, *dists, time.perf_counter() - start, message)

    def _solution(self, rules: Rules, checkpoint) -> Solution:
        with _LOCK:
            if rules in _SOLVED:
                _SOLVED.move_to_end(rules)
                return _SOLVED[rules]
        self.status_w.value = f"solving {html.escape(rules.name)} ..."
        solution = solve(rules, progress=_Bar(self.progress_w, checkpoint))
        with _LOCK:
            _SOLVED[rules] = solution
            while len(_SOLVED) > KEPT:
                _SOLVED.popitem(last=False)
        return solution

    def _distribution(self, rules: Rules, solution: Solution):
        if rules not in _DISTRIBUTIONS:
            from ..objectives.distribution import score_distribution    # numba's forward pass: on request
            self.status_w.value = f"exact distribution of {html.escape(rules.name)} ..."
            _DISTRIBUTIONS[rules] = score_distribution(rules, solution=solution)
        return _DISTRIBUTIONS[rules]

    # -- readable results
    @property
    def rules(self) -> Rules | None:
        return self.result.rules if self.result else None

    @property
    def expected(self) -> float | None:
        return self.result.expected if self.result else None

    @property
    def base_expected(self) -> float | None:
        return self.result.base_expected if self.result else None

    @property
    def change(self) -> float | None:
        """Expected score of the changed rules minus that of the base rules."""
        r = self.result
        return None if r is None or r.expected is None else r.expected - r.base_expected

    @property
    def best_before(self) -> str:
        return self.result.before[0].label if self.result and self.result.before else ""

    @property
    def best_after(self) -> str:
        return self.result.after[0].label if self.result and self.result.after else ""

    @property
    def message(self) -> str:
        return self.result.message if self.result else ""

    # -- the view
    def _build(self) -> None:
        self.out = W.Output()
        slider = dict(continuous_update=False, style={"description_width": "150px"},
                      layout=W.Layout(width="420px"))
        self.base_w = classed(W.Dropdown(options=EDITABLE, description="Start from"), "yc-base")
        self.threshold_w = classed(W.IntSlider(min=1, max=105, description="Upper bonus at",
                                               **slider), "yc-threshold")
        self.bonus_w = classed(W.IntSlider(min=0, max=100, step=5, description="Upper bonus",
                                           **slider), "yc-upper-bonus")
        self.yahtzee_w = classed(W.IntSlider(min=0, max=200, step=10, description="Yahtzee bonus",
                                             **slider), "yc-yahtzee-bonus")
        self.rolls_w = classed(W.IntSlider(min=1, max=4, description="Rolls a turn", **slider),
                               "yc-rolls")
        self.forced_w = classed(W.Checkbox(description="Boxes in card order (forced)"), "yc-forced")
        self.box_w = classed(W.Dropdown(description="Box with fixed points", style=slider["style"],
                                        layout=W.Layout(width="360px")), "yc-box")
        self.points_w = classed(W.IntSlider(min=1, max=100, description="Its points", **slider),
                                "yc-points")
        self.dice_w = classed(W.Text(description="Dice", continuous_update=False), "yc-dice-text")
        self.rolls_left_w = classed(W.BoundedIntText(min=0, max=3, description="Rerolls left",
                                                     layout=W.Layout(width="160px")), "yc-rolls-left")
        self.used_w = classed(W.Text(description="Used boxes", placeholder="ones,twos",
                                     continuous_update=False), "yc-used")
        self.upper_w = classed(W.BoundedIntText(min=0, max=999, description="Upper total",
                                                layout=W.Layout(width="160px")), "yc-upper")
        self.dist_w = classed(W.Checkbox(description="Exact score distributions (slow: a forward "
                                         "pass per rule set)", layout=W.Layout(width="auto")),
                              "yc-distributions")
        self.progress_w = classed(W.FloatProgress(min=0, max=1, description="Solve"), "yc-progress")
        self.status_w = classed(W.HTML(), "yc-status")
        self.headline_w = classed(W.HTML(), "yc-headline")
        self.moves_w = classed(W.HTML(), "yc-moves")
        self.message_w = classed(W.HTML(), "yc-message")
        self.fig = go.FigureWidget([go.Scatter(mode="lines", name="base rules", x=[], y=[]),
                                    go.Scatter(mode="lines", name="changed rules", x=[], y=[])])
        self.fig_box = W.Box([self.fig], layout=W.Layout(display="none"))   # shown with a curve
        self.fig.update_layout(height=320, margin=dict(l=60, r=20, t=50, b=50), template="plotly_white",
                               xaxis_title="final score", yaxis_title="probability")
        self.widget = W.VBox([
            self.base_w, W.HBox([W.VBox([self.threshold_w, self.bonus_w, self.yahtzee_w]),
                                 W.VBox([self.rolls_w, self.box_w, self.points_w, self.forced_w])]),
            W.HTML("<b>A position</b> (the best moves there, before and after)"),
            W.HBox([self.dice_w, self.rolls_left_w]), W.HBox([self.used_w, self.upper_w]),
            W.HBox([self.progress_w, self.status_w]), self.headline_w, self.message_w,
            self.moves_w, self.dist_w, self.fig_box, self.out])
        self.widget.add_class("yc-rules-editor")
        self._wire()

    def _wire(self) -> None:
        capture = self.out.capture()

        def on(widget, name, convert=lambda v: v):
            widget.observe(capture(lambda ch: self._syncing or self.request(**{name: convert(ch["new"])})),
                           "value")
        for widget, name in ((self.base_w, "base"), (self.threshold_w, "upper_bonus_threshold"),
                             (self.bonus_w, "upper_bonus"), (self.yahtzee_w, "yahtzee_bonus"),
                             (self.rolls_w, "rolls_per_turn"), (self.forced_w, "forced_order"),
                             (self.dice_w, "dice"), (self.rolls_left_w, "rolls_left"),
                             (self.used_w, "used"), (self.upper_w, "upper_total"),
                             (self.dist_w, "distributions")):
            on(widget, name)
        on(self.points_w, "points", lambda p: {**self.points, self.box_w.value: p})
        self.box_w.observe(capture(lambda ch: self._sync_inputs()), "value")

    def _sync_inputs(self) -> None:
        """Show the settings in the widgets, without their callbacks firing."""
        self._syncing = True
        try:
            base = get_rules(self.base)
            fixed = {**point_boxes(base), **self.points}
            self.base_w.value = self.base
            self.threshold_w.max = sum(b.max_score for b in base.boxes if b.is_upper) or 1
            self.threshold_w.value = self.upper_bonus_threshold
            self.bonus_w.value, self.yahtzee_w.value = self.upper_bonus, self.yahtzee_bonus
            self.yahtzee_w.disabled = not any(b.spec and b.spec["scorer"] == "all_same" for b in base.boxes)
            self.rolls_w.value, self.forced_w.value = self.rolls_per_turn, self.forced_order
            self.forced_w.disabled = base.joker != "none"      # a joker needs a free choice of box
            if tuple(self.box_w.options) != tuple(fixed):
                self.box_w.options = tuple(fixed)
            if fixed and self.box_w.value not in fixed:
                self.box_w.value = next(iter(fixed))
            self.points_w.disabled = not fixed
            if self.box_w.value in fixed:
                self.points_w.value = fixed[self.box_w.value]
            self.dice_w.value = "".join(map(str, self.dice))
            self.rolls_left_w.value, self.used_w.value = self.rolls_left, ",".join(self.used)
            self.upper_w.value, self.dist_w.value = self.upper_total, self.distributions
        finally:
            self._syncing = False

    def _show(self, result: Result, checkpoint=_never) -> None:
        checkpoint()                           # a stale result is never shown
        self.result = result
        self.message_w.value = (f'<span style="color:#b00020">{html.escape(result.message)}</span>'
                                if result.message else "")
        self.status_w.value = f"done in {result.seconds:.2f} s" if result.rules else ""
        self.headline_w.value = self._headline()
        self.moves_w.value = (moves_table(result.before, result.after)
                              + (f"<i>{html.escape(result.notes)}</i>" if result.notes else ""))
        self._draw(result)

    def _headline(self) -> str:
        r = self.result
        if r.rules is None:
            return ""
        moved = ("the best move stays" if self.best_before == self.best_after else
                 f"the best move changes: <b>{html.escape(self.best_before)}</b> becomes "
                 f"<b>{html.escape(self.best_after)}</b>")
        return (f"<b>{html.escape(r.rules.name)}</b>: expected score <b>{r.expected:.4f}</b> "
                f"({self.change:+.4f} on {html.escape(self.base)}'s {r.base_expected:.4f}); "
                + (moved if r.before and r.after else ""))

    def _draw(self, result: Result) -> None:
        pairs = ((result.base_distribution, self.base), (result.distribution,
                                                         result.rules.name if result.rules else ""))
        with self.fig.batch_update():
            for trace, (d, name) in zip(self.fig.data, pairs):
                end = 0 if d is None else d.quantile(1 - 1e-6) + 1
                trace.x = list(range(end))
                trace.y = [] if d is None else d.probabilities[:end].tolist()
                trace.name = name if d is None else f"{name} (mean {d.mean:.2f}, sd {d.std:.2f})"
            self.fig.layout.title.text = "Exact final score distributions under optimal play"
        self.fig_box.layout.display = None if result.distribution is not None else "none"
        publish(self.fig)

    def _show_error(self, err: BaseException) -> None:
        text = str(err) if isinstance(err, ValueError) else repr(err)
        self.message_w.value = f'<span style="color:#b00020">{html.escape(text)}</span>'
