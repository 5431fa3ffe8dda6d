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
from ..objectives.objective import AtLeast, Beat, Risk
from ..engine.position import Position
from ..game.checks import whole_number
from ..game.rules import get_rules  # noqa: F401 (the doctest)
from ..engine.turn import TIE
from ..game.states import StateSpace
from ..objectives.distribution import ScoreDistribution

__all__ = ["OBJECTIVES", "Shown", "mean_rows", "objective_rows", "play_for", "policy_outlook"]

OUTLOOK_OPEN = 11   # a goal's pass from 11 open boxes: 1.8-5.8 s (benchmarks/outlook.py, Yatzy and Yahtzee), 6-13 s
                    # from seeded random cards with the whole table read; from 12: 6.6-16 s and 11-31 s (2 cores).
                    # A risk pass is never refused: 1-3 s from 10-13 open, 8.4 s a whole Yatzy game
OBJECTIVES = {"mean": "best average", "reach": "reach a total", "beat": "beat a score",
              "risk": "risk appetite"}


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
                   total: int | None = None, score: int | None = None,
                   theta: float | None = None) -> tuple[list[Advice], list[Shown], str]:
    """The choices of `position` ranked for a goal ("reach" a `total`, "beat" a `score`, or a
    "risk" appetite `theta`), best first: as `advise` gives them for `play_for`'s objective, as
    rows, and the heading of the rows' values. ValueError with a readable reason when the goal
    cannot be answered here (points unknown, a whole table not cached)."""
    goal = play_for(position, objective, scored, total, score, theta)
    ranked = advise(position, objective=goal)
    if objective == "risk":
        what = "final score" if scored is not None else "points still to come"
        return (ranked, _with_losses([(a.label, a.value + (scored or 0)) for a in ranked]),
                f"{goal.label} ({what})")
    return ranked, _with_losses([(a.label, a.value) for a in ranked]), goal.label


def play_for(position: Position, objective: str, scored: int | None = None, total: int | None = None,
             score: int | None = None, theta: float | None = None) -> AtLeast | Beat | Risk:
    """The advice objective behind the explorer's "Play for" choice, once it can be answered
    here in about a second (a whole target table is never started behind a click)."""
    from ..advice.objective_advice import quick_targets   # numba's target kernel on demand
    from ..objectives.targets import check_theta
    if objective == "risk":
        if theta is None or theta == 0:
            raise ValueError("a risk appetite of 0 is the best average: move the slider off 0")
        return Risk(check_theta(theta, position.rules))   # the range for these rules
    if objective not in ("reach", "beat"):
        raise ValueError(f"objective must be reach, beat or risk (the mean is `advise`), got {objective!r}")
    for name, v in (("scored", scored), ("total", total), ("score", score)):
        if v is not None:
            whole_number(name, v)
    if scored is None:
        raise ValueError("enter the points so far (bonuses included) to play for a total")
    wanted = total if objective == "reach" else score
    if wanted is None:
        raise ValueError(f"enter the {'total to reach' if objective == 'reach' else 'score to beat'}")
    goal = AtLeast(total, scored) if objective == "reach" else Beat(score, scored)
    need = max(goal.goal.total - scored, 0)
    if not quick_targets(position, need):
        raise ValueError(f"from this early a position the chance of {goal.goal.total} needs the whole target "
                         f"table: run `yatzy solve --rules {position.rules.name} --goal {goal.goal.total}` "
                         "once (about a minute, then cached), or fill more boxes")
    return goal


def policy_outlook(position: Position, objective: str, scored: int | None, total: int | None = None,
                   score: int | None = None, theta: float | None = None) -> tuple[ScoreDistribution, str]:
    """The final-score distribution from `position`, with `scored` points on the card, of the
    policy `objective` plays (`objectives.midgame`: "mean", or `play_for`'s goal), and the words
    that say which policy it is. Refused as `play_for` refuses (a whole target table not
    cached, from early on), and a goal's with more than OUTLOOK_OPEN boxes open (the pass would
    take up to minutes; a risk pass takes seconds from anywhere); a goal already out of reach
    leaves every choice hopeless, so the mean decides: the best average's distribution.

    >>> p = Position.make("yahtzee-no-bonus", used=set(get_rules("yahtzee-no-bonus").box_names) - {"chance"},
    ...                   upper_total=63, dice="12346", rolls_left=1)
    >>> d, words = policy_outlook(p, "beat", 200, score=223)
    >>> words, round(d.p_at_least(224), 4), round(35 / 216, 4)     # keep 4 6, as advised
    ('playing to beat 223', 0.162, 0.162)
    """
    from ..advice.objective_advice import risk_utilities, targets_for
    from ..engine.solutions import solution_for
    from ..objectives import midgame
    from ..objectives.targets import most_gain
    if scored is None:
        raise ValueError("enter the points so far (bonuses included) to see the final score")
    whole_number("scored", scored)
    if objective == "mean":
        return midgame.position_distribution(position, solution_for(position.rules), scored), "best average"
    goal = play_for(position, objective, scored, total, score, theta)
    words = (f"risk θ={goal.theta:g}" if isinstance(goal, Risk) else
             f"playing to beat {score}" if objective == "beat" else f"playing for {total}")
    space = StateSpace(position.rules)
    need = 0 if objective == "risk" else max(goal.goal.total - scored, 0)
    if need > most_gain(space, [position.state(space)])[0]:
        return (midgame.position_distribution(position, solution_for(position.rules), scored),
                f"{words}: out of reach, so the best average")
    if not isinstance(goal, Risk) and position.rules.n_boxes - len(position.used) > OUTLOOK_OPEN:
        raise ValueError(f"the distribution of {words} is computed with {OUTLOOK_OPEN} boxes open "
                         "or fewer (from earlier it takes up to minutes): fill more boxes")
    if isinstance(goal, Risk):
        utilities = risk_utilities(position, goal.theta)
        return midgame.risk_position_distribution(position, position.rules, goal.theta, utilities, scored), words
    return (midgame.target_position_distribution(position, targets_for(position, need), goal.goal.total, scored),
            words)
