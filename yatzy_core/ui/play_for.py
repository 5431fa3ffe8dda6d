"""What the explorer ranks the choices by: the best average, or an objective of `objectives/objective.py`.

The explorer shows every objective the same way, as rows of (label, value, loss against the
best) under a heading that says what the value is. The mean comes from the solved table; a
target (`AtLeast`) or a score to beat (`Beat`), which need the points on the card, and a risk
appetite (`Risk`) from `advise` with that objective. Work that would take a minute (a whole target table from an
early position) is refused with a message that says how to get it, never started behind a click.

>>> p = Position.make("yahtzee-no-bonus", used=set(get_rules("yahtzee-no-bonus").box_names) - {"chance"},
...                   upper_total=63, dice="12346", rolls_left=1)
>>> _, rows, heading = objective_rows(p, "beat", scored=200, score=223)
>>> heading, [(r.label, round(r.value, 4)) for r in rows[:2]]
('P(final > 223)', [('keep 4 6', 0.162), ('keep 6', 0.159)])
"""
from __future__ import annotations

from dataclasses import dataclass

from ..advice.advisor import Advice, advise
from ..objectives.objective import MEAN, AdviceObjective
from ..objectives.registry import objective_class, objective_for, offered, slot_values
from ..engine.position import Position
from ..game.checks import whole_number
from ..game.rules import get_rules  # noqa: F401 (the doctest)
from ..engine.turn import TIE
from ..objectives.distribution import ScoreDistribution

__all__ = ["Shown", "answering", "mean_rows", "objective_rows", "play_for", "policy_outlook", "ranked_for",
           "ranking_note", "shown_total"]



@dataclass(frozen=True)
class Shown:
    """One choice as a table row or a bar: its value for the objective and what it gives away."""

    label: str
    value: float
    loss: float

    @property
    def best(self) -> bool:
        return self.loss <= TIE


def mean_rows(advice: list[Advice], scored: int | None) -> list[Shown]:
    """The advisor's ranking: expected points still to come, or final score when `scored` is known."""
    return [Shown(a.label, a.expected + (scored or 0), a.loss) for a in advice]


def _with_losses(pairs: list[tuple[str, float]]) -> list[Shown]:
    best = max((v for _, v in pairs), default=0.0)
    return [Shown(label, value, best - value) for label, value in pairs]


def objective_rows(position: Position, objective: str, scored: int | None = None,
                   **values) -> tuple[list[Advice], list[Shown], str]:
    """The choices of `position` ranked for the registered objective `objective` (a key:
    "reach" a `total`, "beat" a `score`, a "risk" appetite `theta`, ...) with its parameters'
    `values`, best first: as `advise` gives them for `play_for`'s objective, as rows, and the
    heading of the rows' values. ValueError with a readable reason when the goal cannot be
    answered here (points unknown, a whole table not cached)."""
    return ranked_for(position, play_for(position, objective, scored, **values), scored)[:3]


def ranked_for(position: Position, goal: AdviceObjective, scored: int | None = None
               ) -> tuple[list[Advice], list[Shown], str, AdviceObjective]:
    """`objective_rows` for an objective already built by `play_for`, and the objective that
    answers (`answering`): the explorer asks both of one `play_for`, not two."""
    ranked = advise(position, objective=goal)
    answer = answering(goal, position)        # an approximation heads its rows with its own label
    if answer is not goal:
        return ranked, _with_losses([(a.label, a.value) for a in ranked]), answer.label, answer
    if goal.measure == "certainty_equivalent":   # points still to come: shown as a final score when known
        what = "final score" if scored is not None else "points still to come"
        return (ranked, _with_losses([(a.label, a.value + (scored or 0)) for a in ranked]),
                f"{goal.label} ({what})", answer)
    return ranked, _with_losses([(a.label, a.value) for a in ranked]), goal.label, answer


def answering(goal: AdviceObjective, position: Position) -> AdviceObjective:
    """The objective that answers `position` for `goal`: itself, or the approximation it hands a
    position over to (two-player play before the endgame tables: `answer_for`)."""
    answer_for = getattr(goal, "answer_for", None)
    return goal if answer_for is None else answer_for(position)


def ranking_note(position: Position, objective: str, scored: int | None = None, **values) -> str:
    """The line under a ranking that says it is an approximation and what that loses ("" when
    the objective answers `position` itself); ValueError as `play_for` refuses."""
    goal = play_for(position, objective, scored, **values)
    answer = answering(goal, position)
    return "" if answer is goal else answer.aim()


def play_for(position: Position, objective: str, scored: int | None = None, **values) -> AdviceObjective:
    """The objective behind the explorer's "Play for" choice (`registry.objective_for`, a value
    its input refuses named first), checked against the rules, once it can be answered here in
    about a second (a whole target table is never started behind a click)."""
    kind = objective_class(objective)
    if kind.mean_play:
        raise ValueError(f"objective must be one of {', '.join(k for k in offered() if k != objective)} "
                         f"(the mean is `advise`), got {objective!r}")
    if scored is not None:
        whole_number("scored", scored)
    for p in kind.parameters:
        if p.kind is int and values.get(p.name) is not None:
            whole_number(p.name, values[p.name], 0 if p.low is None else int(p.low))   # a lead may be < 0
        for value, why in (p.input.refused if p.input else ()):
            if values.get(p.name) == value:
                raise ValueError(why)
    goal = objective_for(objective, points=scored if kind.on_card else None, **values)
    goal.check(position.rules)
    goal.ready(position)
    return goal


def policy_outlook(position: Position, objective: str, scored: int | None,
                   **values) -> tuple[ScoreDistribution, str]:
    """The final-score distribution from `position`, with `scored` points on the card, of the
    policy `objective` plays (a registered key with its parameters' `values`: `play_for`'s goal,
    or the mean; `AdviceObjective.outlook`), and the words that say which policy it is. Refused
    as `play_for` refuses, and as the objective's outlook refuses (a goal's from too early a card);
    a goal already out of reach leaves every choice hopeless, so the mean decides: the best
    average's distribution.

    >>> p = Position.make("yahtzee-no-bonus", used=set(get_rules("yahtzee-no-bonus").box_names) - {"chance"},
    ...                   upper_total=63, dice="12346", rolls_left=1)
    >>> d, words = policy_outlook(p, "beat", 200, score=223)
    >>> words, round(d.p_at_least(224), 4), round(35 / 216, 4)     # keep 4 6, as advised
    ('playing to beat 223', 0.162, 0.162)
    """
    if scored is None:
        raise ValueError("enter the points so far (bonuses included) to see the final score")
    whole_number("scored", scored)
    if getattr(objective_class(objective), "no_outlook", None):   # said before `ready` refuses a long table
        raise ValueError(objective_class(objective).no_outlook)
    goal = MEAN if objective_class(objective).mean_play else play_for(position, objective, scored, **values)
    words = goal.words
    if goal.hopeless(position):
        words = f"{words}: out of reach, so the best average"
    return goal.outlook(position, scored), words


def shown_total(objective: str, slots: dict, default: int) -> int:
    """The total whose P(final >= total) the outlook shows for the objective chosen in the
    widgets' `slots` (a goal's own total, else `default`).

    >>> shown_total("beat", {"goal": 223, "theta": 0.1}, 250), shown_total("risk", {"goal": 223, "theta": 0.1}, 250)
    (224, 250)
    """
    try:
        return objective_for(objective, points=0, **slot_values(objective, slots)).at_least(default)
    except ValueError:
        return default
