"""The "What should I keep?" explorer: set a position with widgets, see every choice ranked.

Three layers, as in plotly's FigureWidget apps:

1. the model is plain Python: an `Position` built from the inputs and `advise` on it;
2. `Explorer` (a traitlets `HasTraits`) holds the inputs, the position, the advice and the message,
   and builds its widgets and one `go.FigureWidget` once;
3. widget callbacks only call `explorer.update(...)`; after every change `_render` rewrites the
   view inside `fig.batch_update()`.

So cells and tests drive the model with `explorer.update(**params)` and read
`explorer.best_label`, `explorer.message` or `explorer.advice`, never pixels. Every widget carries
a stable CSS class (`yc-die-0`, `yc-rules`, `yc-best`, ...) for the browser test.

>>> ex = Explorer(rules="yatzy", dice=(1, 1, 1, 1, 2), rolls_left=2)
>>> ex.dice_table.dice, ex.best_label, ex.value_heading
([1, 1, 1, 1, 2], 'keep 1 1 1 1', 'expected points still to come')
>>> ex.update(upper_total=7, used=("ones",)).message
'Impossible position: upper total 7 cannot be made with the used upper boxes (ones)'
"""
from __future__ import annotations

import html
from contextlib import contextmanager

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go
from traitlets import Bool, Float, HasTraits, Instance, Int, List, TraitError, Tuple, Unicode, observe, validate

from ..advice.advisor import advise
from ..engine.position import Position, parse_dice
from ..game.rules import get_rules, rule_names
from ..engine.solutions import solution_for
from .background import reraise
from .coach_outlook import Outlook
from .dice_widget import DiceTable
from .fitted_figure import fitted
from ..objectives.registry import REGISTRY, slot_values, titles
from .objective_inputs import menu, show_slots, slot_input, slot_widget
from .play_for import mean_rows, play_for, policy_outlook, ranked_for, shown_total
from .ranking_view import advice_table, bar_data, rows_bars, rows_table, value_heading  # noqa: F401 (two re-exported)
from .scorecard import box_label
from .widget_kit import classed, publish, wrapping

# The explorer; the ranking's table and bars (`ranking_view`) and the widget helpers (`widget_kit`)
# have their own homes and stay importable from here, where notebooks and tests found them first.
__all__ = ["Explorer", "advice_table", "bar_data", "rows_table", "rows_bars", "value_heading", "classed",
           "publish", "wrapping"]

INPUTS = ("rules", "dice", "rolls_left", "used", "upper_total", "yahtzee_bonus", "scored",
          "objective", "goal", "theta", "card", "lead")


def _beyond_box(slot: str, value) -> str:
    """Why a whole number for a box slot ("goal", "lead") is not taken: past the box's range
    (`slot_input`) the box would show its bound while the model used the number. '' otherwise
    (a value of another type is traitlets' to refuse).

    >>> _beyond_box("lead", 10**30), _beyond_box("lead", -7)
    ('lead must be between -2000 and 2000, got 1000000000000000000000000000000', '')
    """
    spec = slot_input(slot)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and not spec.low <= value <= spec.high:
        return f"{slot} must be between {spec.low:g} and {spec.high:g}, got {value}"
    return ""


class Explorer(HasTraits):
    """A game position set by widgets, and the advisor's ranking of every choice in it."""

    rules = Unicode("yatzy")
    dice = Tuple((1, 1, 1, 1, 2))         # in the order shown (the position sorts them); as many
    #                                       as the rules roll (`update` fits them to new rules)
    rolls_left = Int(2)                    # rerolls still allowed this turn
    used = Tuple(())                       # names of the filled boxes
    upper_total = Int(0)                   # points in the upper boxes (before any bonus)
    yahtzee_bonus = Bool(False)            # the Yahtzee box holds 50 (rules with the bonus)
    scored = Int(None, allow_none=True)    # points on the card so far, if the player tells us
    objective = Unicode("mean")            # a registered objective's key: what the choices are ranked by
    goal = Int(250)                        # the "goal" slot: the total to reach, or the score to beat
    theta = Float(-0.02)                   # the "theta" slot: the risk appetite (< 0 cautious, > 0 bold)
    card = Unicode("")                     # the "card" slot: an opponent's card as text (its parameter parses it)
    lead = Int(0)                          # the "lead" slot: your points minus the opponent's
    top = Int(10)                          # choices in the bar chart

    position = Instance(Position, allow_none=True)
    advice = List()                        # the advisor's ranking (best average)
    choices = List()                       # ranked for the objective (`Advice`)
    rows = List()                          # the choices as shown (`objectives.Shown`)
    message = Unicode("")
    note = Unicode("")                     # says the ranking is an approximation, and what it loses

    def __init__(self, seed=0, **params):
        super().__init__()
        self.rng = np.random.default_rng(seed)
        self._holding = self._syncing = False
        self._card_rules = None
        self._build()
        self.update(**params)

    # -- the model
    def update(self, **params) -> "Explorer":
        """Set any of INPUTS at once, then recompute the position and advice one time."""
        unknown = set(params) - set(INPUTS)
        if unknown:
            raise ValueError(f"unknown explorer inputs {sorted(unknown)}; use {', '.join(INPUTS)}")
        error = ""
        if isinstance(params.get("dice"), str):
            try:
                params["dice"] = parse_dice(params["dice"])
            except ValueError as err:        # shown as the message; the dice stay as they were
                error = str(err)
                del params["dice"]
        if isinstance(params.get("used"), str):
            params["used"] = tuple(n.strip() for n in params["used"].split(",") if n.strip())
        refused = {slot: _beyond_box(slot, params.get(slot)) for slot in ("goal", "lead")}
        for slot in [slot for slot, why in refused.items() if why]:
            del params[slot]                  # said, and the value before kept: box and attribute agree
        if "rules" in params and params["rules"] != self.rules:
            self._fit_to_rules(params)
        with self._hold():
            for name, value in params.items():
                setattr(self, name, tuple(value) if name in ("dice", "used") else value)
        self._refresh(error, "; ".join(why for why in refused.values() if why))
        return self

    def _fit_to_rules(self, params: dict) -> None:
        """On a new rule set keep what still makes sense: known boxes, allowed rerolls."""
        try:
            rules = get_rules(params["rules"])
        except ValueError:
            return                                   # _refresh reports the unknown name
        params.setdefault("used", tuple(n for n in self.used if n in rules.box_names))
        params.setdefault("rolls_left", min(self.rolls_left, rules.rolls_per_turn - 1))
        if len(self.dice) != rules.n_dice or max(self.dice) > rules.faces:
            dice = [min(d, rules.faces) for d in self.dice[:rules.n_dice]]
            params.setdefault("dice", tuple(dice + [1] * (rules.n_dice - len(dice))))
        if not rules.tracks_yahtzee_bonus:
            params.setdefault("yahtzee_bonus", False)

    @contextmanager
    def _hold(self):
        self._holding = True
        try:
            yield
        finally:
            self._holding = False

    @validate("goal", "lead")
    def _in_box(self, proposal):
        """A goal or lead set as an attribute past its box: TraitError saying so (`update` says it as the message)."""
        why = _beyond_box(proposal["trait"].name, proposal["value"])
        if why:
            raise TraitError(why)
        return proposal["value"]

    @observe(*INPUTS)
    def _on_input(self, change):
        if not self._holding:
            self._refresh()

    def _refresh(self, error: str = "", refused: str = "") -> None:
        """Position and rankings from the inputs; `error` makes the position impossible, `refused`
        (an input not taken) is said before any other message."""
        try:
            if error:
                raise ValueError(error)
            position = Position.make(self.rules, used=self.used, upper_total=self.upper_total,
                                     dice=self.dice, rolls_left=self.rolls_left,
                                     yahtzee_bonus=self.yahtzee_bonus)
            advice, message = advise(position, solution_for(position.rules)), ""
        except ValueError as err:
            position, advice, message = None, [], f"Impossible position: {err}"
        choices, rows, self.heading = advice, mean_rows(advice, self.scored), value_heading(self.scored)
        note = ""
        if position is not None and not getattr(REGISTRY.get(self.objective), "mean_play", False):
            try:
                values = slot_values(self.objective, self.slots)
                goal = play_for(position, self.objective, self.scored, **values)
                choices, rows, self.heading, answer = ranked_for(position, goal, self.scored)
                note = "" if answer is goal else answer.aim()     # an approximation says what it loses
            except ValueError as err:    # shown; the best-average ranking stays on screen
                message = f"{titles().get(self.objective, self.objective)}: {err}"
        message = "; ".join(part for part in (refused, message) if part)
        self.position, self.advice, self.choices, self.rows, self.message, self.note = (
            position, advice, choices, rows, message, note)
        self._render()
        self._show_outlook(position)

    def _show_outlook(self, position) -> None:
        """The final score's distribution under the policy played for, on the outlook's worker."""
        if position is None or self.scored is None:
            return self.outlook.clear("" if position is None else "Enter the points so far to see "
                                      "the distribution of your final score.")
        key, scored, slots = self.objective, self.scored, self.slots
        self.outlook.run(lambda: policy_outlook(position, key, scored, **slot_values(key, slots)),
                         target=shown_total(key, slots, self.goal))

    @property
    def slots(self) -> dict:
        """The values of the objective inputs (`objective_inputs.SLOTS`)."""
        return {"goal": self.goal, "theta": self.theta, "card": self.card, "lead": self.lead}

    # -- readable results
    @property
    def best(self):
        """The best choice for the objective (an `Advice`, valued for it)."""
        return self.choices[0] if self.choices else None

    @property
    def best_label(self) -> str:
        return self.best.label if self.best else ""

    @property
    def value_heading(self) -> str:
        return self.heading

    def roll(self) -> "Explorer":
        """New random dice, as many as the rules roll (from the seeded generator)."""
        n, faces = get_rules(self.rules).n_dice, get_rules(self.rules).faces
        return self.update(dice=tuple(sorted(int(d) for d in self.rng.integers(1, faces + 1, n))))

    def play_best(self) -> "Explorer":
        """Play the position forward: make the best move, with new dice from the seeded generator."""
        p, best = self.position, self.best
        if p is None:
            return self
        if best.action == "keep":
            nxt = p.keep(best.keep, rng=self.rng)
            return self.update(dice=nxt.dice, rolls_left=nxt.rolls_left)
        points = p.points(best.box)
        scored = None if self.scored is None else self.scored + points
        nxt = p.score(best.box, rng=self.rng)
        if nxt is None:
            self.update(used=tuple(p.used | {best.box}), scored=scored)
            return self
        return self.update(used=tuple(sorted(nxt.used)), upper_total=nxt.upper_total, dice=nxt.dice,
                           rolls_left=nxt.rolls_left, yahtzee_bonus=nxt.yahtzee_bonus, scored=scored)

    # -- the view
    def _build(self) -> None:
        self.out = W.Output()
        self.rules_w = classed(W.Dropdown(options=rule_names(), description="Rules"), "yc-rules")
        self.dice_table = classed(DiceTable(show_controls=False, listen_keys=False,
                                            die_class="yc-die", die_title="click to change this die"),
                                  "yc-explorer-dice")   # the coach's dice: click one to change it
        self.dice_table.on("toggle", self.out.capture()(self.cycle_die))
        self._card_names: list[str] = []                 # the box of each card button
        self.dice_text = classed(W.Text(description="Dice", placeholder="11112",
                                        continuous_update=False, layout=W.Layout(width="180px")),
                                 "yc-dice-text")
        self.roll_w = classed(W.Button(description="Roll at random", icon="dice"), "yc-roll")
        self.rolls_w = classed(W.ToggleButtons(description="Rerolls left", style={
            "button_width": "40px", "description_width": "initial"}), "yc-rolls-left")
        self.card_w = classed(W.HBox(layout=W.Layout(flex_flow="row wrap")), "yc-card")
        self.upper_w = classed(W.BoundedIntText(description="Upper total", min=0, max=999,
                                                layout=W.Layout(width="180px")), "yc-upper")
        self.bonus_w = classed(W.Checkbox(description="Yahtzee box holds 50"), "yc-bonus")
        self.scored_w = classed(W.Text(description="Points so far", placeholder="unknown",
                                       continuous_update=False, layout=W.Layout(width="200px")),
                                "yc-scored")
        self.play_w = classed(W.Button(description="Play the best move", icon="forward"), "yc-play-best")
        self.objective_w = classed(W.Dropdown(options=menu(), description="Play for"), "yc-objective")
        self.goal_w = classed(slot_widget("goal", 250, "Total", width="160px"), "yc-goal")
        self.theta_w = classed(slot_widget("theta", -0.02, "Risk θ"), "yc-theta")
        self.card_text_w = classed(slot_widget("card", "", "Their card", width="320px"), "yc-opponent-card")
        self.lead_w = classed(slot_widget("lead", 0, "Your lead", width="160px"), "yc-lead")
        self.message_w = classed(W.HTML(), "yc-message")
        self.outlook = Outlook(on_error=self.out.capture()(reraise), controls=False, css="yc-explorer")
        self.best_w = classed(W.HTML(), "yc-best")
        self.table_w = classed(W.HTML(), "yc-advice")
        self.fig = go.FigureWidget(go.Bar(orientation="h", x=[], y=[], marker_color=[],
                                          texttemplate="%{x:.2f}", textposition="inside",
                                          hovertemplate="%{y}: %{x:.2f}<extra></extra>"))
        self.fig.update_layout(height=380, margin=dict(l=10, r=20, t=50, b=50), yaxis_automargin=True,
                               title_font_size=14, yaxis_title="choice", template="plotly_white")
        chart = classed(fitted(self.fig, flex="1 1 340px", min_width="0", max_width="720px"), "yc-chart")
        self.widget = W.VBox([
            wrapping(self.rules_w, self.rolls_w),
            wrapping(self.dice_table, self.dice_text, self.roll_w),
            W.HTML("<b>Score card</b> (click a box to mark it used)"), self.card_w,
            wrapping(self.upper_w, self.bonus_w, self.scored_w, self.play_w),
            wrapping(self.objective_w, self.goal_w, self.theta_w, self.card_text_w, self.lead_w),
            self.message_w, self.best_w,
            wrapping(self.table_w, chart, reverse=True), self.outlook.widget, self.out])
        self.widget.add_class("yc-explorer")
        self._wire()

    def _wire(self) -> None:
        capture = self.out.capture()

        def on(widget, name):
            widget.observe(capture(lambda ch: self._syncing or self.update(**{name: ch["new"]})), "value")
        on(self.rules_w, "rules")
        on(self.rolls_w, "rolls_left")
        on(self.upper_w, "upper_total")
        on(self.bonus_w, "yahtzee_bonus")
        on(self.dice_text, "dice")
        on(self.objective_w, "objective")
        on(self.goal_w, "goal")
        on(self.theta_w, "theta")
        on(self.card_text_w, "card")
        on(self.lead_w, "lead")
        self.scored_w.observe(capture(self._on_scored), "value")
        self.roll_w.on_click(capture(lambda _: self.roll()))
        self.play_w.on_click(capture(lambda _: self.play_best()))

    def cycle_die(self, i: int) -> "Explorer":
        """What clicking die i does: its face goes up by one, from the highest back to 1."""
        faces = get_rules(self.rules).faces if self.rules in rule_names() else 6
        dice = list(self.dice)
        dice[i] = dice[i] % faces + 1
        return self.update(dice=tuple(dice))

    def _on_scored(self, change) -> None:
        if self._syncing:
            return
        text = change["new"].strip()
        if not text:
            self.update(scored=None)
        elif text.isdigit():
            self.update(scored=int(text))
        else:
            self._refresh(f"points so far must be a whole number or empty, got {text!r}")

    def _build_card(self, rules) -> None:
        def toggle(name):
            button = classed(W.ToggleButton(description=box_label(name), layout=W.Layout(width="auto")),
                             "yc-used", f"yc-used-{name}")
            button.observe(self.out.capture()(lambda ch: self._syncing or self._tick(name, ch["new"])),
                           "value")
            return button
        self.card_w.children = [toggle(name) for name in rules.box_names]
        self._card_names = list(rules.box_names)
        self.rolls_w.options = [(str(r), r) for r in range(rules.rolls_per_turn - 1, -1, -1)]
        self.bonus_w.disabled = not rules.tracks_yahtzee_bonus
        self._card_rules = rules.name

    def _tick(self, name: str, on: bool) -> None:
        used = [n for n in self.used if n != name] + ([name] if on else [])
        self.update(used=tuple(used))

    def _render(self) -> None:
        self._syncing = True
        try:
            self._sync_inputs()
        finally:
            self._syncing = False
        best, heading = self.best, self.value_heading
        self.message_w.value = (f'<span style="color:#b00020">{html.escape(self.message)}</span>'
                                if self.message else "")
        digits = 4 if heading.startswith("P(") else 2
        self.best_w.value = ("" if best is None else
                             f"<b>Best: {html.escape(best.text)}</b> &mdash; {html.escape(heading)}: "
                             f"{self.rows[0].value:.{digits}f}"
                             + (f"<br><small>{html.escape(self.note)}</small>" if self.note else ""))
        self.table_w.value = rows_table(self.rows, heading, digits)
        labels, values, colours, xrange = rows_bars(self.rows, self.top)
        what = "keepers" if best is None or best.action == "keep" else "boxes"
        with self.fig.batch_update():
            bar = self.fig.data[0]
            bar.x, bar.y, bar.marker.color = values, labels, colours
            self.fig.layout.title.text = (f"Top {len(values)} {what}: {heading}" if values
                                          else "No advice for this position")
            self.fig.layout.xaxis.title.text = heading if digits == 4 else f"{heading} (points)"
            self.fig.data[0].texttemplate = f"%{{x:.{digits}f}}"
            self.fig.layout.xaxis.range = xrange
        publish(self.fig)

    def _sync_inputs(self) -> None:
        if self.rules in rule_names():
            rules = get_rules(self.rules)
            if self._card_rules != rules.name:
                self._build_card(rules)
            self.rules_w.value = rules.name
        if self.rolls_left in dict(self.rolls_w.options).values():
            self.rolls_w.value = self.rolls_left
        self.dice_table.dice = [int(face) for face in self.dice]
        self.dice_text.value = "".join(map(str, self.dice))
        for toggle, name in zip(self.card_w.children, self._card_names):
            toggle.value = name in self.used
        self.upper_w.value = max(0, self.upper_total)
        self.bonus_w.value = self.yahtzee_bonus
        self.scored_w.value = "" if self.scored is None else str(self.scored)
        keys = [key for _, key in menu()]
        self.objective_w.value = self.objective if self.objective in keys else keys[0]
        self.goal_w.value, self.theta_w.value = min(max(self.goal, self.goal_w.min), self.goal_w.max), self.theta
        self.card_text_w.value, self.lead_w.value = self.card, min(max(self.lead, self.lead_w.min), self.lead_w.max)
        show_slots(self.objective, {"goal": self.goal_w, "theta": self.theta_w, "card": self.card_text_w,
                                    "lead": self.lead_w}, shown="")
