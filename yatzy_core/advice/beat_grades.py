"""The coach's verdict for a goal: each move of a game graded by the chance to beat a score.

`coach.Game` grades every move in expected points. A player chasing a known score (the last
player at the table, who knows what to beat) asks another question: how much of my chance to
beat S did this move give away? Each move is looked up in the goal advice of its position
(`objective_advice.target_advice`, the points on the card so far included), against the best move there.

>>> from yatzy_core.game.rules import get_rules
>>> rules = get_rules("yahtzee-no-bonus")
>>> chance = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
>>> game = Game(chance, dice="12346")
>>> _ = game.keep("46", rolled="111"); _ = game.keep("46", rolled="111"); _ = game.score("chance")
>>> g = grade_to_beat(game, 26)[1]        # 1 1 1 4 6, one reroll left, 27 points needed
>>> g.decision.label, g.best_label, round(g.probability * 216, 9), round(g.best * 1296, 9)
('keep 4 6', 'keep 6', 4.0, 35.0)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..engine.position import Position
from ..game.checks import instance_of, whole_number
from .coach import Decision, Game
from .advisor import Advice
from .ranking import keep_all
from .objective_advice import target_advice
from ..objectives.tables import targets_for
from ..objectives.targets import Targets
from ..engine.turn import TIE

__all__ = ["BeatGrade", "grade_to_beat"]


@dataclass(frozen=True)
class BeatGrade:
    """One move graded for beating a score: P(final > S) after it, and after the best move."""

    decision: Decision
    probability: float
    best: float
    best_label: str

    @property
    def given_away(self) -> float:
        return self.best - self.probability

    @property
    def optimal(self) -> bool:
        return self.given_away <= TIE


def _value_of(choices: list[Advice], decision: Decision) -> float | None:
    """The played choice's probability; None for keeping all dice (not a choice: a roll spent)."""
    return next((a.probability for a in choices
                 if a.action == decision.choice.action and a.keep == decision.choice.keep
                 and a.box == decision.choice.box), None)


@lru_cache(maxsize=2)
def _table(rules, goal: int) -> Targets:
    """The table a grade reads, kept for the next grade of the same score (a whole game solved
    up to the goal takes seconds to a minute when no whole table is cached)."""
    return targets_for(Position.make(rules, dice=(1,) * rules.n_dice), goal)   # the empty card


def grade_to_beat(game: Game, score: int, targets: Targets | None = None) -> list[BeatGrade]:
    """Every move of `game` (finished or not) graded by P(final total > score), best play after
    it. One target table serves the whole game: `targets`, else the one `objectives.tables.targets_for`
    gives from the empty card (cached whole table, or solved once up to score + 1)."""
    instance_of("game", game, Game, "a coach.Game")
    whole_number("score", score)
    instance_of("targets", targets, Targets, "a target table (solve_targets or target_table)", optional=True)
    goal, points, grades = score + 1, 0, []
    for d in list(game.decisions):
        if targets is None:
            targets = _table(game.rules, goal)
        ranked = target_advice(d.position, points, goal, targets)   # a box with rerolls left: "score now"
        value = _value_of(ranked, d)
        if value is None:     # all dice kept: a roll spent
            value = keep_all(d.position, lambda p: target_advice(p, points, goal, targets)).probability
        grades.append(BeatGrade(d, value, ranked[0].probability, ranked[0].label))
        points += d.points or 0
    return grades
