"""The coach's "to beat S" panel: grade the game's moves by the chance to beat a score.

A player who knows the score to beat (the last at the table) types it; every move so far is
graded by the probability of beating it that the move gave away (`beat_grades.grade_to_beat`).
The first grade of a rule set may solve its target table (seconds to a minute), so the button
runs it on a worker thread (`background.Latest`) and the panel says it is working.

>>> print(grades_html([], 150))
<p>No moves yet to grade for beating 150.</p>
"""
from __future__ import annotations

import html

import ipywidgets as W

from ..advice.beat_grades import BeatGrade
from .background import Latest

__all__ = ["BeatPanel", "grades_html"]

WORST = 3   # moves listed, most probability given away first


def grades_html(grades: list[BeatGrade], score: int) -> str:
    """The verdict: moves best for the goal, probability given away, the costliest moves."""
    if not grades:
        return f"<p>No moves yet to grade for beating {score}.</p>"
    best = sum(g.optimal for g in grades)
    given = sum(g.given_away for g in grades)
    lines = [f"<b>To beat {score}</b>: {best} of {len(grades)} moves were the best for it; "
             f"probability given away, summed over the moves: {given:.4f}."]
    for g in sorted((g for g in grades if not g.optimal), key=lambda g: -g.given_away)[:WORST]:
        d = g.decision
        lines.append(f"turn {d.turn}, dice {' '.join(map(str, d.position.dice))}: "
                     f"{html.escape(d.label)} (P {g.probability:.4f}); best {html.escape(g.best_label)} "
                     f"(P {g.best:.4f})")
    return "<p>" + "<br>".join(lines) + "</p>"


class BeatPanel:
    """A score box, a button and the verdict. The owner sets `current()` (the game now, read on
    the UI thread when the button is pressed) and `grade(game, score)` (run on the worker)."""

    def __init__(self, capture):
        self.score_w = W.BoundedIntText(value=250, min=0, max=2000, description="Score to beat",
                                        style={"description_width": "initial"},
                                        layout=W.Layout(width="200px"))
        self.score_w.add_class("yc-coach-beat")
        self.button_w = W.Button(description="Grade to beat it", icon="flag-checkered")
        self.button_w.add_class("yc-coach-grade-beat")
        self.result_w = W.HTML("")
        self.result_w.add_class("yc-coach-beat-result")
        self.current = lambda: None
        self.grade = lambda game, score: []
        self._latest = Latest(on_error=lambda err: setattr(
            self.result_w, "value", f"<p>Could not grade: {html.escape(str(err))}</p>"))
        self.button_w.on_click(capture(lambda _: self.submit(self.score_w.value)))
        self.widget = W.VBox([W.HBox([self.score_w, self.button_w], layout=W.Layout(flex_flow="row wrap")),
                              self.result_w])

    def submit(self, score: int) -> None:
        """Grade on the worker; the panel shows that it works, then the verdict."""
        game = self.current()                  # the moves as they are now, not when the job runs
        self.result_w.value = ("<p>Grading&hellip; (the first grade of a score solves the table of "
                               "every target up to it, up to a minute, unless <code>yatzy solve "
                               "--goal</code> has cached a whole table)</p>")

        def job(checkpoint):
            grades = self.grade(game, score)
            checkpoint()
            return lambda: setattr(self.result_w, "value", grades_html(grades, score))
        self._latest.submit(job)

    def reset(self) -> None:
        """A new game: drop the verdict, and any grade still running (at its checkpoint)."""
        self._latest.supersede()
        self.result_w.value = ""

    def wait(self, timeout: float | None = None) -> bool:
        return self._latest.wait(timeout)
