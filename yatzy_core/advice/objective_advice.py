"""Advice and play for a goal or a risk appetite, by their tables: `advise` with the objective
`AtLeast`/`Risk` and, when given, the table it reads (`objectives.tables` chooses one otherwise).

>>> from yatzy_core.game.rules import get_rules
>>> p = Position.make("yahtzee-no-bonus", used=set(get_rules("yahtzee-no-bonus").box_names) - {"chance"},
...                   upper_total=63, dice="11111", rolls_left=0)
>>> [(a.label, a.probability) for a in target_advice(p, points=200, goal=205)]
[('score chance', 1.0)]
>>> q = Position.make(p.rules, used=p.used, upper_total=63, dice="12346", rolls_left=1)
>>> [(a.label, round(a.probability, 4)) for a in target_advice(q, points=200, goal=224)[:2]]
[('keep 4 6', 0.162), ('keep 6', 0.159)]
>>> round(35 / 216, 4)                      # keep 4 6: three dice must make 14 or more
0.162
"""
from __future__ import annotations

import numpy as np

from .advisor import advise
from .ranking import Advice
from ..engine.position import Position
from ..game.checks import instance_of, whole_number
from ..objectives.appetite import Risk
from ..objectives.goals import AtLeast
from ..objectives.objective import position_of
from ..objectives.risk import RiskTable
from ..objectives.targets import Targets

__all__ = ["target_advice", "risk_advice", "play_to_target"]


def target_advice(position: Position, points: int, goal: int, targets: Targets | None = None, *,
                  use_cache: bool = True) -> list[Advice]:
    """Every choice, best first, with its exact P(final total >= goal) from a card holding
    `points` (bonuses included, at most `Position.most_points`): `advise` with `AtLeast(goal,
    points)`. Choices within TIE are ordered by their expected points (then the turn engine's
    order). A goal past the most the card can still gain is answered at once: 0 for every
    choice, ordered by the mean, no target table solved. use_cache=False solves the whole table
    (early positions) afresh, uncached."""
    position_of(position), whole_number("points", points), whole_number("goal", goal)
    instance_of("targets", targets, Targets, "a target table (solve_targets or target_table)", optional=True)
    return advise(position, targets, use_cache, objective=AtLeast(goal, points))


def risk_advice(position: Position, theta: float, table: RiskTable | None = None, *,
                use_cache: bool = True) -> list[Advice]:
    """Every choice, best first, by its certainty equivalent (points still to come) under
    E[exp(theta * points)]: theta < 0 cautious, > 0 bold (`advise` with `Risk(theta)`). Ranked
    on the certainty-equivalent scale (within TIE points: tied), not on the utilities, which all
    lie within TIE of each other once |theta| times the points is large or |theta| tiny."""
    position_of(position)
    instance_of("table", table, RiskTable, "a RiskTable (risk_table)", optional=True)
    return advise(position, table, use_cache, objective=Risk(theta))


def play_to_target(targets: Targets, goal: int, rng: np.random.Generator) -> int:
    """One game played to reach `goal` (the target policy, choices by `target_advice`): its final total."""
    rules = targets.rules
    position = Position.make(rules, dice=_roll(rules, rng))
    points = 0
    while True:
        best = target_advice(position, points, goal, targets)[0]
        if best.action == "keep":
            position = position.keep(best.keep, rng=rng)
            continue
        points += position.points(best.box)
        position = position.score(best.box, rng=rng)
        if position is None:
            return points


def _roll(rules, rng) -> tuple[int, ...]:
    return tuple(sorted(int(d) for d in rng.integers(1, rules.faces + 1, size=rules.n_dice)))
