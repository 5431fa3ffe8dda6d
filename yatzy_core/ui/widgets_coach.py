"""The play-along coach as widgets: a view of a `coach.Game`, advice hidden unless you ask.

The dice are drawn as dice (`dice_widget.DiceTable`): click one (or press its number) to hold
it, press *Roll* (or r) to reroll the others, click a box of the score card (or pick it with the
arrows and press Enter; Enter alone scores the box the advisor would) to score the dice there.
*Hint* (h) shows the advisor's move and holds its dice; *Undo* (u) takes a move back. After
every move the coach says what it cost in expected points; beside the card, the exact
distribution of your final score from here (`coach_outlook`) and your chance of reaching a
target. The game log can be saved, loaded, or typed from a paper game and graded
(`coach_log`, `gamelog`). At the end the summary lists your total, the optimal expectation,
your optimal moves, the expected points lost and your three costliest decisions.

`CoachApp` holds the game (the model); `keep`, `score`, `roll`, `toggle_hold`, `enter`, `hint`,
`undo`, `press` and `update` drive it from cells and tests.

>>> app = CoachApp("yatzy", seed=7, outlook=False)
>>> app.keep(app.best.keep).optimal, app.game.turn
(True, 1)
>>> len(app.undo().game.decisions)
0
>>> app.press("r"), len(app.game.decisions)
('roll', 1)
"""
from __future__ import annotations

import copy
import dataclasses
import html

import ipywidgets as W
from traitlets import Bool, HasTraits, Instance, Int, Tuple, Unicode

from ..advice.advisor import Advice, advise
from ..advice.coach import Decision, Game
from ..advice.gamelog import dumps, paper_game, parse, replay, rules_of, undo
from ..engine.position import counted, rerolls_left
from ..game.rules import Rules, get_rules, rule_names
from .coach_beat import BeatPanel
from .coach_log import LogPanel, own_rules
from .background import reraise
from .coach_outlook import Outlook
from .dice_widget import DiceTable
from .scorecard import game_card_html
from .ranking_view import advice_table
from .widget_kit import classed

__all__ = ["CoachApp", "decision_html", "hold_for"]

ERROR = '<span style="color:#b00020">{}</span>'


def _seed(text: str) -> int | None:
    text = text.strip()
    if text and not text.isdigit():
        raise ValueError(f"the seed must be a whole number (or empty for random dice), got {text!r}")
    return int(text) if text else None


def offered(rules) -> str | Rules:
    """`rules` if the coach offers it: a rule set of its menu, a built-in game with saved rolls
    (maxi-yatzy: played from its whole table, given as the coach's solution) or a Rules value (a
    rule file, added to the menu); else ValueError naming rules (the other built-ins are too big
    to solve in a notebook)."""
    if isinstance(rules, Rules):
        return rules
    names = rule_names()
    saving = [n for n in rule_names(include_new=True) if get_rules(n).saved_rolls]
    if not isinstance(rules, str) or rules not in names + saving:
        shown = rules if isinstance(rules, str) else type(rules).__name__
        raise ValueError(f"rules {shown[:40]!r} are not offered by the coach; choose one of: {', '.join(names)}")
    return rules


def decision_html(d: Decision, reveal: bool) -> str:
    """One move as a line of feedback: what it cost, and the better move if `reveal`."""
    verdict = ("optimal" if d.optimal else f"cost {d.loss:.2f} expected points")
    better = f" (optimal: {html.escape(d.best.label)})" if reveal and not d.optimal else ""
    return f"Turn {d.turn}: you chose <b>{html.escape(d.label)}</b> &mdash; {verdict}{better}."


def hold_for(dice, keep) -> tuple[bool, ...]:
    """Which dice to hold to keep the multiset `keep` (the first matching dice).

    >>> hold_for((1, 1, 2, 5, 5), (1, 5))
    (True, False, False, True, False)
    """
    held = [False] * len(dice)
    for face in keep:
        free = [i for i, d in enumerate(dice) if d == face and not held[i]]
        if not free:
            raise ValueError(f"keep {tuple(keep)} is not among the dice {tuple(dice)}")
        held[free[0]] = True
    return tuple(held)


class CoachApp(HasTraits):
    """A whole game played in widgets, each move checked against optimal play."""

    rules = Unicode("yatzy")
    seed = Int(None, allow_none=True)      # None: fresh random dice each game
    show_advice = Bool(False)
    held = Tuple()                         # one bool per die: held for the next reroll
    game = Instance(Game)
    feedback = Unicode("")
    source = Unicode("")                   # "" (dealt here), "loaded log" or "paper game"

    def __init__(self, rules: str | Rules = "yatzy", seed: int | None = None, show_advice: bool = False,
                 outlook: bool = True, solution=None):
        chosen = offered(rules)
        super().__init__(rules=get_rules(chosen).name, seed=seed, show_advice=show_advice)
        self.extra = None if chosen in rule_names() else chosen   # a rule set outside the menu
        self.solution = solution   # used for the rules it solves (a saved-roll game's SavedSolution)
        self._syncing = False
        self._build(outlook)
        self.new_game()

    # -- the model
    def new_game(self, rules: str | None = None, seed: int | None | str = "same", dice=None) -> "CoachApp":
        """Start again (same rules and seed unless given). A game with saved rolls too big to
        solve here (maxi-yatzy) without its table given raises ValueError saying how big it is."""
        asked = self.rules if rules is None else rules
        chosen = offered(self._chosen(asked) if isinstance(asked, str) else asked)
        seed = self.seed if seed == "same" else seed
        given = self.solution if self.solution is not None and self.solution.rules == get_rules(chosen) else None
        game = Game(chosen, seed=seed, dice=dice, solution=given)
        if chosen not in rule_names():
            self.extra = chosen
        self.seed, self.source, self.feedback = seed, "", ""
        return self._set_game(game)

    def _chosen(self, name: str) -> str | Rules:
        """The rules a menu entry names (the extra entry: the Rules value it came from)."""
        return self.extra if self.extra is not None and get_rules(self.extra).name == name else name

    def _menu(self) -> list[str]:
        extra = [] if self.extra is None else [get_rules(self.extra).name]
        return rule_names() + [name for name in extra if name not in rule_names()]

    def _set_game(self, game: Game) -> "CoachApp":
        self.goal.reset()
        self.game = game
        self.rules = game.rules.name
        self.table.selected = None
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
        dealt = self.source or ("random dice" if self.seed is None else f"seed {self.seed}")
        head = f"{g.rules.name} · {dealt} · turn {min(g.turn, g.rules.n_boxes)} of {g.rules.n_boxes}"
        tail = f"move {len(g.decisions)} · score {g.total}"
        saved = f" · Saved rolls: {g.saved}" if g.rules.saved_rolls else ""
        if g.over:
            return f"{head} · game over{saved} · {tail}"
        return f"{head} · {rerolls_left(g.position.rolls_left)}{saved} · {tail}"

    def toggle_hold(self, i: int, on: bool | None = None) -> "CoachApp":
        """Hold die i (or release it); `on` None flips it."""
        if self.game.over:
            return self
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

    def enter(self, box: str | None = None) -> Decision | None:
        """Score `box`, or with none the box the advisor would score these dice in now."""
        if box is None and not self.game.over and self.game.rules.saved_rolls:   # rolls left are saved
            box = next(a.box for a in self.game.advice() if a.action == "box")
        elif box is None and not self.game.over:
            last = dataclasses.replace(self.game.position, rolls_left=0)
            box = advise(last, self.game.solution)[0].box
        return self.score(box)

    def hint(self) -> Advice | None:
        """Show the advisor's move: hold its dice when it is a keeper; for a box, point at it
        (and hold every die when it is scored now, with rerolls left)."""
        best = self.best
        if best is None:
            return None
        self.feedback = f"Hint: <b>{html.escape(best.label)}</b>"
        if best.action == "keep":
            self.held = hold_for(self.game.position.dice, best.keep)
        else:
            self.table.selected = best.box
            if best.now:
                self.held = (True,) * len(self.game.position.dice)
        self._render()
        return best

    def undo(self) -> "CoachApp":
        """Take the last move back (the dice drawn since stay drawn: the stream goes on)."""
        if not self.game.decisions:
            self.feedback = ERROR.format("Nothing to undo.")
            self._render()
            return self
        last = self.game.decisions[-1]
        self.feedback = f"Took back turn {last.turn}: {html.escape(last.label)}."
        return self._set_game(undo(self.game))

    def press(self, key: str) -> str | None:
        """What pressing `key` on the page does (see `dice_widget.KEYS`)."""
        return self.table.press(key)

    def save_log(self) -> str:
        """The game log as JSON, also shown in the log panel with a download link."""
        text = dumps(self.game)
        self.log.saved(text)
        return text

    def load_log(self, text: str) -> "CoachApp":
        """Continue (or review) a game from a saved JSON log (a saved-roll game's: from the
        table the page was given, `solution`)."""
        def load() -> Game:
            log = parse(text)
            own_rules(rules_of(log, self.solution), self.extra)   # before any solve or replay
            return replay(log, solution=self.solution, seed=self.seed)
        return self._load(load, "loaded log")

    def grade_paper(self, text: str) -> "CoachApp":
        """Grade a game played on paper (one turn a line, `gamelog.paper_game`) in the rules shown."""
        return self._load(lambda: paper_game(self._chosen(self.rules_w.value), text), "paper game")

    def grade_to_beat(self, score: int, game: Game | None = None) -> list:
        """The moves so far (of `game`, default the one on screen) graded by the chance to beat
        `score` they gave away; the panel's button runs this on a worker thread."""
        from ..advice.beat_grades import grade_to_beat   # the target kernel: only when asked
        return grade_to_beat(self.game if game is None else game, score)

    def _snapshot(self) -> Game:
        snap = copy.copy(self.game)
        snap.decisions = list(self.game.decisions)
        return snap

    def _load(self, make, source: str) -> "CoachApp":
        try:
            game = make()
        except ValueError as err:
            self.feedback = ERROR.format(html.escape(str(err)))
            self._render()
            return self
        self.source, self.feedback = source, f"{source.capitalize()}: {len(game.decisions)} moves graded."
        return self._set_game(game)

    def _move(self, make) -> Decision | None:
        try:
            decision = make()
        except ValueError as err:
            self.feedback = ERROR.format(f"Not allowed: {html.escape(str(err))}")
            self._render()
            return None
        self.feedback = decision_html(decision, self.show_advice)
        self.table.selected = None
        self._after_move()
        return decision

    def _after_move(self) -> "CoachApp":
        self.held = (False,) * self.game.rules.n_dice
        self._render()
        if self.game.rules.saved_rolls:    # the exact distribution does not know saved rolls
            self.outlook.widget.layout.display = "none"
        else:
            self.outlook.show(self.game)
        return self

    # -- the view
    def _build(self, outlook: bool) -> None:
        self.out = W.Output()
        capture = self.out.capture()
        self.rules_w = classed(W.Dropdown(options=self._menu(), value=self.rules, description="Rules",
                                          layout=W.Layout(width="260px")), "yc-coach-rules")
        self.seed_w = classed(W.Text(description="Seed", placeholder="random",
                                     value="" if self.seed is None else str(self.seed),
                                     layout=W.Layout(width="180px")), "yc-coach-seed")
        self.new_w = classed(W.Button(description="New game", icon="refresh"), "yc-coach-new")
        self.status_w = classed(W.HTML(), "yc-coach-status")
        self.table = classed(DiceTable(), "yc-coach-table")
        for action, handler in [("toggle", self.toggle_hold), ("roll", self.roll), ("score", self.score),
                                ("enter", self.enter), ("hint", self.hint), ("undo", self.undo)]:
            self.table.on(action, capture(handler))
        self.table.observe(lambda _: self._render_table(), "selected")
        self.show_w = classed(W.ToggleButton(description="Show advice", value=self.show_advice,
                                             icon="lightbulb-o"), "yc-coach-show-advice")
        self.feedback_w = classed(W.HTML(), "yc-coach-feedback")
        self.outlook = Outlook(on_error=capture(reraise), enabled=outlook)
        self.advice_w = classed(W.HTML(), "yc-coach-advice")
        self.summary_w = classed(W.HTML(), "yc-coach-summary")
        self.history_w = classed(W.HTML(), "yc-coach-history")
        self.log = LogPanel(capture)
        self.log.on_save, self.log.on_load, self.log.on_paper = self.save_log, self.load_log, self.grade_paper
        self.goal = BeatPanel(capture)
        self.goal.current = self._snapshot
        self.goal.grade = lambda game, score: self.grade_to_beat(score, game)
        wrap = W.Layout(flex_flow="row wrap", align_items="flex-start", width="100%")
        side = W.VBox([self.feedback_w, self.outlook.widget, self.show_w, self.advice_w],
                      layout=W.Layout(width="100%", max_width="480px", margin="0 0 0 8px"))
        self.widget = classed(W.VBox([
            W.HBox([self.rules_w, self.seed_w, self.new_w], layout=wrap), self.status_w,
            classed(W.HBox([self.table, side], layout=wrap), "yc-coach-main"),
            self.summary_w, self.goal.widget, self.history_w, self.log.widget, self.out],
            layout=W.Layout(width="100%", max_width="960px")), "yc-coach")
        self.new_w.on_click(capture(lambda _: self._on_new()))
        self.show_w.observe(capture(lambda ch: self._syncing or self.update(show_advice=ch["new"])), "value")

    def _on_new(self) -> None:
        try:
            seed = _seed(self.seed_w.value)
        except ValueError as err:
            self.feedback = ERROR.format(html.escape(str(err)))
            self._render()
            return
        self.new_game(self.rules_w.value, seed)

    def _render_table(self) -> None:
        game, table = self.game, self.table
        if table.selected is not None and (game.over or table.selected in game.scores):
            table.selected = None              # observed: comes back here
            return
        free = len(self.held) - sum(self.held)
        with table.hold_sync():
            table.dice = list(game.position.dice) if not game.over else []
            table.held = list(self.held)
            table.card = game_card_html(game, table.selected)
            table.open_boxes = [] if game.over else list(game.position.box_points())
            table.over = game.over
            table.can_roll = not game.over and game.position.rolls_left > 0
            table.can_undo = bool(game.decisions)
            spends = " (a saved roll)" if game.rules.saved_rolls and not game.over \
                and game.position.rolls_left <= game.saved else ""
            reroll = f"Reroll {counted(free, 'die', 'dice')}{spends}" if free else "Reroll none (keep all)"
            table.roll_label = reroll if table.can_roll else "No rerolls left: score a box"

    def _render(self) -> None:
        game = self.game
        self._syncing = True
        try:
            if list(self.rules_w.options) != self._menu():
                self.rules_w.options = self._menu()
            self.rules_w.value = self.rules
            self.seed_w.value = "" if self.seed is None else str(self.seed)
            self.show_w.value = self.show_advice
        finally:
            self._syncing = False
        self._render_table()
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
