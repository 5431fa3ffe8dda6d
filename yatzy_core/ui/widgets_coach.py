"""The play-along coach as widgets: a view of a `coach.Game`, advice hidden unless you ask.

Click dice to hold them, reroll the others, click a box to score it. After every move the
coach says what it cost in expected points; "Show advice" reveals the advisor's ranking; at the
end of the game the summary lists your total, the optimal expectation, your optimal moves, the
expected points you lost and your three costliest decisions. `CoachApp` holds the game (the
model); `keep`, `score`, `roll`, `toggle_hold` and `update` drive it from cells and tests.

>>> app = CoachApp("yatzy", seed=7)
>>> app.keep(app.best.keep).optimal, app.game.turn
(True, 1)
"""
from __future__ import annotations

import html

import ipywidgets as W
from traitlets import Bool, HasTraits, Instance, Int, Tuple, Unicode

from ..advisor import Advice
from ..coach import Decision, Game
from ..rules import get_rules, rule_names
from ..solutions import solution_for
from .widgets import advice_table, classed

__all__ = ["CoachApp", "decision_html"]

HELD_STYLE = "warning"   # the colour of a held die


def _seed(text: str) -> int | None:
    text = text.strip()
    if text and not text.isdigit():
        raise ValueError(f"the seed must be a whole number (or empty for random dice), got {text!r}")
    return int(text) if text else None


def decision_html(d: Decision, reveal: bool) -> str:
    """One move as a line of feedback: what it cost, and the better move if `reveal`."""
    verdict = ("optimal" if d.optimal else f"cost {d.loss:.2f} expected points")
    better = f" (optimal: {html.escape(d.best.label)})" if reveal and not d.optimal else ""
    return f"Turn {d.turn}: you chose <b>{html.escape(d.label)}</b> &mdash; {verdict}{better}."


class CoachApp(HasTraits):
    """A whole game played in widgets, each move checked against optimal play."""

    rules = Unicode("yatzy")
    seed = Int(None, allow_none=True)      # None: fresh random dice each game
    show_advice = Bool(False)
    held = Tuple()                         # one bool per die: held for the next reroll
    game = Instance(Game)
    feedback = Unicode("")

    def __init__(self, rules: str = "yatzy", seed: int | None = None, show_advice: bool = False):
        super().__init__(rules=rules, seed=seed, show_advice=show_advice)
        self._syncing = False
        self._build()
        self.new_game()

    # -- the model
    def new_game(self, rules: str | None = None, seed: int | None | str = "same", dice=None) -> "CoachApp":
        """Start again (same rules and seed unless given)."""
        self.rules = self.rules if rules is None else rules
        self.seed = self.seed if seed == "same" else seed
        self.game = Game(self.rules, seed=self.seed, dice=dice, solution=solution_for(self.rules))
        if len(self.dice_w) != self.game.rules.n_dice:
            self._build_dice(self.game.rules.n_dice)
        self.feedback = ""
        return self._after_move()

    def update(self, **params) -> "CoachApp":
        """Set rules/seed (which start a new game), show_advice or held, then redraw."""
        unknown = set(params) - {"rules", "seed", "show_advice", "held"}
        if unknown:
            raise ValueError(f"unknown coach inputs {sorted(unknown)}")
        if "show_advice" in params:
            self.show_advice = bool(params["show_advice"])
        if "held" in params:
            self.held = tuple(bool(h) for h in params["held"])
        if "rules" in params or "seed" in params:
            return self.new_game(params.get("rules"), params.get("seed", "same"))
        self._render()
        return self

    @property
    def advice(self) -> list[Advice]:
        return [] if self.game.over else self.game.advice()

    @property
    def best(self) -> Advice | None:
        return self.advice[0] if not self.game.over else None

    @property
    def status(self) -> str:
        g = self.game
        dealt = "random dice" if self.seed is None else f"seed {self.seed}"
        head = f"{g.rules.name} · {dealt} · turn {min(g.turn, g.rules.n_boxes)} of {g.rules.n_boxes}"
        tail = f"move {len(g.decisions)} · score {g.total}"
        if g.over:
            return f"{head} · game over · {tail}"
        return f"{head} · {g.position.rolls_left} rerolls left · {tail}"

    def toggle_hold(self, i: int, on: bool | None = None) -> "CoachApp":
        """Hold die i (or release it); `on` None flips it."""
        held = list(self.held)
        held[i] = not held[i] if on is None else bool(on)
        return self.update(held=held)

    def roll(self) -> Decision | None:
        """Reroll the dice not held (the held ones are the keeper)."""
        kept = [d for d, h in zip(self.game.position.dice, self.held) if h] if not self.game.over else []
        return self._move(lambda: self.game.keep(kept))

    def keep(self, kept) -> Decision | None:
        return self._move(lambda: self.game.keep(kept))

    def score(self, box: str) -> Decision | None:
        return self._move(lambda: self.game.score(box))

    def _move(self, make) -> Decision | None:
        try:
            decision = make()
        except ValueError as err:
            self.feedback = f'<span style="color:#b00020">Not allowed: {html.escape(str(err))}</span>'
            self._render()
            return None
        self.feedback = decision_html(decision, self.show_advice)
        self._after_move()
        return decision

    def _after_move(self) -> "CoachApp":
        self.held = (False,) * self.game.rules.n_dice
        self._render()
        return self

    # -- the view
    def _build(self) -> None:
        self.out = W.Output()
        capture = self.out.capture()
        self.rules_w = classed(W.Dropdown(options=rule_names(), value=self.rules, description="Rules"),
                               "yc-coach-rules")
        self.seed_w = classed(W.Text(description="Seed", placeholder="random",
                                     value="" if self.seed is None else str(self.seed),
                                     layout=W.Layout(width="180px")), "yc-coach-seed")
        self.new_w = classed(W.Button(description="New game", icon="refresh"), "yc-coach-new")
        self.status_w = classed(W.HTML(), "yc-coach-status")
        self.dice_w: list[W.ToggleButton] = []     # one per die of the rules: `_build_dice`
        self.dice_box = W.HBox()
        self.roll_w = classed(W.Button(description="Reroll the others", icon="dice"), "yc-coach-roll")
        self.card_w = classed(W.HBox(layout=W.Layout(flex_flow="row wrap")), "yc-coach-card")
        self.card_head = classed(W.HTML(), "yc-coach-card-head")
        self.show_w = classed(W.ToggleButton(description="Show advice", value=self.show_advice,
                                             icon="lightbulb-o"), "yc-coach-show-advice")
        self.feedback_w = classed(W.HTML(), "yc-coach-feedback")
        self.advice_w = classed(W.HTML(), "yc-coach-advice")
        self.summary_w = classed(W.HTML(), "yc-coach-summary")
        self.history_w = classed(W.HTML(), "yc-coach-history")
        self.widget = classed(W.VBox([
            W.HBox([self.rules_w, self.seed_w, self.new_w]), self.status_w,
            W.HBox([self.dice_box, self.roll_w]),
            self.card_head, self.card_w,
            self.feedback_w, self.show_w, self.advice_w, self.summary_w, self.history_w, self.out]),
            "yc-coach")
        self.new_w.on_click(capture(lambda _: self._on_new()))
        self.roll_w.on_click(capture(lambda _: self.roll()))
        self.show_w.observe(capture(lambda ch: self._syncing or self.update(show_advice=ch["new"])), "value")
        self._build_dice(get_rules(self.rules).n_dice)

    def _build_dice(self, n: int) -> None:
        """One toggle button per die of the rules; clicking one holds it."""
        capture = self.out.capture()
        self.dice_w = [classed(W.ToggleButton(description="1", tooltip="click to hold this die",
                                              layout=W.Layout(width="44px", height="44px")),
                               "yc-die", f"yc-coach-die-{i}") for i in range(n)]
        for i, button in enumerate(self.dice_w):
            button.observe(capture(lambda ch, i=i: self._syncing or self.toggle_hold(i, ch["new"])), "value")
        self.dice_box.children = self.dice_w

    def _on_new(self) -> None:
        try:
            seed = _seed(self.seed_w.value)
        except ValueError as err:
            self.feedback = f'<span style="color:#b00020">{html.escape(str(err))}</span>'
            self._render()
            return
        self.new_game(self.rules_w.value, seed)

    def _box_buttons(self) -> None:
        game = self.game
        if [b.tooltip for b in self.card_w.children] != list(game.rules.box_names):
            def make(name):
                button = classed(W.Button(tooltip=name, layout=W.Layout(width="auto")),
                                 "yc-coach-box", f"yc-coach-box-{name}")
                button.on_click(self.out.capture()(lambda _: self.score(name)))
                return button
            self.card_w.children = [make(name) for name in game.rules.box_names]
        allowed = {} if game.over else game.position.box_points()
        for button in self.card_w.children:
            name = button.tooltip
            if name in game.scores:
                button.description, button.disabled, button.button_style = \
                    f"{name} = {game.scores[name]}", True, "info"
            else:
                bonus = int(game.position.scored(name).bonus) if name in allowed else 0
                extra = f" + {bonus} bonus" if bonus else ""
                button.description = (f"{name}: {allowed[name] - bonus}{extra}" if name in allowed
                                      else f"{name}: –")
                button.disabled, button.button_style = name not in allowed, ""

    def _render(self) -> None:
        game = self.game
        self._syncing = True
        try:
            self.rules_w.value = self.rules
            self.seed_w.value = "" if self.seed is None else str(self.seed)
            self.show_w.value = self.show_advice
            dice = game.position.dice if not game.over else ()
            for i, button in enumerate(self.dice_w):
                held = i < len(self.held) and self.held[i]
                button.description = str(dice[i]) if i < len(dice) else "·"
                button.value, button.disabled = held, game.over
                button.button_style = HELD_STYLE if held else ""
        finally:
            self._syncing = False
        self.roll_w.disabled = game.over or game.position.rolls_left == 0
        free = len(self.held) - sum(self.held)
        self.roll_w.description = f"Reroll {free} dice" if free else "Reroll none (keep all)"
        self._box_buttons()
        self.card_head.value = ("<b>Score card</b> (click a box to score the dice there) "
                                f"&middot; bonuses so far: {game.bonus}")
        self.status_w.value = f"<b>{html.escape(self.status)}</b>"
        self.feedback_w.value = self.feedback
        self.advice_w.value = (advice_table(self.advice, game.total) if self.show_advice and not game.over
                               else "")
        self.summary_w.value = self._summary_html() if game.over else ""
        lines = [decision_html(d, self.show_advice or game.over) for d in game.decisions]
        self.history_w.value = ("<details><summary>Your moves</summary>" + "<br>".join(lines[::-1])
                                + "</details>") if lines else ""

    def _summary_html(self) -> str:
        lines = self.game.summary().lines()
        body = "<br>".join(html.escape(line).replace("  ", "&nbsp;&nbsp;") for line in lines[1:])
        return f"<h3>Game over &mdash; {html.escape(lines[0])}</h3><p>{body}</p>"
