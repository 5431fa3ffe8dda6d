"""Your chances from here: the exact distribution of the final score from the position on screen
as a small plot, and P(final >= a target you type), under the policy you say you play: the best
average (`midgame.position_distribution`), the target you type, a score to beat or a risk
appetite (`play_for.policy_outlook`: that policy's own distribution, not max-mean's). A goal
whose whole target table is not cached is refused from early in a game, as the explorer does.

A forward pass from early in a game takes seconds, so it runs on a worker thread
(`background.Latest`): a newer move supersedes a pass not yet shown, a stale result is never
drawn, and the drawing is done on the kernel's thread (widgets are not thread-safe). The plot is
an SVG string in an `HTML` widget (`score_bars`: its whole state in one value, tens of kilobytes).
`chance_text` and `outlook_svg` are pure and tested on exact values.

>>> import numpy as np
>>> from yatzy_core.objectives.distribution import ScoreDistribution
>>> chance_text(ScoreDistribution("yatzy", np.array([0, 0.25, 0.5, 0.25])), 2)
'P(final score ≥ 2) = 75.0% · mean 2.0 · 25% of games ≤ 1, 75% ≤ 2'
"""
from __future__ import annotations

import copy
import html
import threading

import ipywidgets as W
import numpy as np

from ..game.checks import whole_number
from ..objectives.distribution import ScoreDistribution
from ..objectives.midgame import position_distribution
from .background import Latest, reraise   # noqa: F401 (reraise: the pages' on_error)
from ..objectives.registry import slot_values
from .objective_inputs import labels, menu, show_slots, slot_widget
from .play_for import policy_outlook, shown_total
from .score_bars import bars_svg

__all__ = ["Outlook", "game_distribution", "game_outlook", "chance_text", "outlook_svg", "reraise"]

DEFAULT_TARGET = 250


def game_distribution(game) -> ScoreDistribution:
    """The final-score distribution of a `coach.Game` from where it stands (a point mass once over)."""
    if game.over:
        mass = np.zeros(game.total + 1)
        mass[game.total] = 1.0
        return ScoreDistribution(game.rules.name, mass)
    return position_distribution(game.position, game.solution, points=game.total)


def game_outlook(game, objective: str = "mean", goal: int = DEFAULT_TARGET, theta: float = 0.05,
                 card: str = "", lead: int = 0) -> tuple[ScoreDistribution, str]:
    """The final-score distribution of a `coach.Game` from where it stands under the policy of
    `objective` (a registered key, its parameters read from the inputs: `goal` a total or a score
    to beat, `theta` a risk appetite, `card` and `lead` an opponent's), and the words for that
    policy (`play_for.policy_outlook`); ValueError with the reason when it is refused (an
    objective with no final-score outlook says so in one line)."""
    if game.over:
        return game_distribution(game), "game over"
    slots = {"goal": goal, "theta": theta, "card": card, "lead": lead}
    return policy_outlook(game.position, objective, game.total, **slot_values(objective, slots))


def _check_target(target) -> int:
    return whole_number("target", target)


def chance_text(dist: ScoreDistribution, target: int) -> str:
    """One line: P(final >= target), the mean and the quartiles."""
    target = _check_target(target)
    return (f"P(final score ≥ {target}) = {100 * dist.p_at_least(target):.1f}% · "
            f"mean {dist.mean:.1f} · 25% of games ≤ {dist.quantile(0.25)}, 75% ≤ {dist.quantile(0.75)}")


def outlook_svg(dist: ScoreDistribution | None, target: int, policy: str = "best average") -> str:
    """Bars of P(final = x) over the scores still possible, those >= target green (none for
    no distribution); the title says which `policy` is played."""
    target = _check_target(target)
    return bars_svg(dist.probabilities if dist is not None else [], target,
                    f"Final score from here ({policy})")


class Outlook:
    """The plot, the policy played (Play for, target or score to beat, risk θ) and the target
    box; `show(game)` recomputes in the background. Its parts carry CSS classes `css`-chance,
    `css`-target, ... (the coach's and the explorer's share a page)."""

    def __init__(self, on_error, enabled: bool = True, controls: bool = True, css: str = "yc-coach"):
        self.enabled, self.fixed_target = enabled, None
        self.distribution: ScoreDistribution | None = None
        self.policy = "best average"          # the words for the policy of `distribution`
        self.latest = Latest(on_error=on_error)
        self.plot_w = W.HTML(outlook_svg(None, DEFAULT_TARGET, self.policy))   # no bars until a pass is done
        self.plot_w.add_class(f"{css}-plot")
        self.play_w = W.Dropdown(options=menu(), description="Play for", layout=W.Layout(width="220px"))
        self.play_w.add_class(f"{css}-play-for")
        self.target_w = slot_widget("goal", DEFAULT_TARGET, "Target", high=10_000, width="160px")
        self.target_w.add_class(f"{css}-target")
        self.theta_w = slot_widget("theta", 0.05, "Risk θ", width="260px", display="none")
        self.theta_w.add_class(f"{css}-theta")
        self.card_w = slot_widget("card", "", "Their card", width="320px", display="none")
        self.card_w.add_class(f"{css}-opponent-card")
        self.lead_w = slot_widget("lead", 0, "Your lead", width="160px", display="none")
        self.lead_w.add_class(f"{css}-lead")
        self.chance_w = W.HTML("")
        self.chance_w.add_class(f"{css}-chance")
        boxes = W.HBox([self.play_w, self.target_w, self.theta_w, self.card_w, self.lead_w],
                       layout=W.Layout(flex_flow="row wrap", display=None if controls else "none"))
        self.widget = W.VBox([boxes, self.chance_w, self.plot_w],
                             layout=W.Layout(max_width="100%", overflow="hidden"))
        self.widget.add_class(f"{css}-outlook")
        self.target_w.observe(lambda _: self._target_changed(), "value")
        self.play_w.observe(lambda _: self._policy_changed(), "value")
        for widget in (self.theta_w, self.card_w, self.lead_w):
            widget.observe(lambda _: self._policy_changed(), "value")
        self._lock, self.shown, self.game = threading.Lock(), 0, None

    @property
    def objective(self) -> str:
        return self.play_w.value

    @property
    def target(self) -> int:
        """P(final >= target) is shown: the target typed, past the score to beat when beating one."""
        if self.fixed_target is not None:
            return self.fixed_target
        return shown_total(self.objective, self.slots, int(self.target_w.value))

    @property
    def slots(self) -> dict:
        """The values of the objective inputs (`objective_inputs.SLOTS`)."""
        return {"goal": int(self.target_w.value), "theta": float(self.theta_w.value),
                "card": self.card_w.value, "lead": int(self.lead_w.value)}

    def show(self, game) -> None:
        """Compute the distribution of the policy played from the game's position on the
        worker, then draw it (a refusal is shown instead, the plot left empty)."""
        self.game = game = copy.copy(game)    # position and total as they are now
        objective, slots = self.objective, self.slots
        self.run(lambda: game_outlook(game, objective, **slots), at_once=game.over)

    def run(self, compute, target: int | None = None, at_once: bool = False) -> None:
        """Draw `compute()` = (distribution, policy words) once the worker has it (`at_once`:
        here, a point mass); a ValueError it raises is shown as the refusal. `target`: P(final
        >= target) to show, else the target box's (the explorer hides the boxes)."""
        self.widget.layout.display = None if self.enabled else "none"
        if not self.enabled:
            return
        with self._lock:
            self.shown += 1                   # only the newest position may be drawn
            mine = self.shown
            self.fixed_target = target

        def job(checkpoint):
            try:
                result = compute()            # (distribution, words), or words of a refusal
            except ValueError as err:          # refused (no whole table from this early)
                result = str(err)
            checkpoint()                       # a newer move came: never show this one
            return lambda: self._publish(mine, result)    # drawn on the kernel's thread
        if at_once:
            self.latest.supersede()            # a pass still running is stale now
            job(lambda: None)()
            return
        self.chance_w.value = "<i>computing your chances&hellip;</i>"
        self.latest.submit(job)

    def clear(self, text: str = "") -> None:
        """No distribution: `text` says why (a pass still running is stale now)."""
        self.run(lambda: text, at_once=True)

    def wait(self, timeout: float | None = None) -> bool:
        return self.latest.wait(timeout)

    def _policy_changed(self) -> None:
        show_slots(self.objective, {"goal": self.target_w, "theta": self.theta_w, "card": self.card_w,
                                    "lead": self.lead_w}, idle={"goal": "Target"})
        if self.game is not None:
            self.show(self.game)

    def _target_changed(self) -> None:
        if "goal" in labels(self.objective) and self.game is not None:
            self.show(self.game)              # the policy plays for the target: a new pass
        else:
            self._draw()

    def _publish(self, mine: int, result) -> None:
        with self._lock:                       # the check and the drawing as one step
            if mine != self.shown:
                return
            if isinstance(result, str):        # a refusal: its reason, no plot
                self.distribution = None
                self.chance_w.value = f"<i>{html.escape(result)}</i>"
                self.plot_w.value = outlook_svg(None, self.target, self.policy)
                return
            self.distribution, self.policy = result
            self._draw()

    def _draw(self) -> None:
        dist = self.distribution
        if dist is None:
            return
        self.plot_w.value = outlook_svg(dist, self.target, self.policy)
        self.chance_w.value = (f"<b>{html.escape(chance_text(dist, self.target))}</b>"
                               f"<br><small>from here: {html.escape(self.policy)}</small>")
