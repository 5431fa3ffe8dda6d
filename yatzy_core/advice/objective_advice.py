"""Advice and play for other goals than the mean: reach a total, beat a score, a risk appetite.

The workers behind `advisor.advise` for the objectives `AtLeast`/`Beat` and `Risk`. The values come
from the turn engine (`turn.evaluate`) with `TargetLanes` over a target table (`targets.py`)
or `ExpUtility` over the risk values, and the choices from `ranking.choices`, so the choices
(a box scored now included) and the tie rule are those of every other advice. A late position needs no whole table: with no table
cached only the subgame of its open boxes is solved, up to the points still needed. An earlier one
reads the rule set's whole table, solved and cached by the first goal that needs it.

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

from .ranking import Advice, choices
from ..engine.position import Position
from ..game.checks import instance_of, whole_number
from ..game.states import StateSpace
from ..engine.cache import cacheable
from ..objectives.targets import (Targets, cached_caps, check_theta, check_utilities, most_gain, risk_table,
                                  solve_risk, solve_targets, target_table)
from ..engine.turn import ExpUtility, TargetLanes, box_values, evaluate
from ..objectives.midgame import mean_turn

__all__ = ["target_advice", "risk_advice", "risk_utilities", "targets_for", "quick_targets", "play_to_target",
           "second_player"]


EXACT_OPEN = 6   # with this many boxes open or fewer the subgame is solved exactly (float64)


def _late(position: Position) -> bool:
    return position.rules.n_boxes - len(position.used) <= EXACT_OPEN


def _cached_cap(position: Position, need: int) -> int | None:
    """The smallest cached whole table's n_max that answers `need`, if any."""
    return next((n for n in cached_caps(position.rules) if n >= need), None)


def quick_targets(position: Position, need: int) -> bool:
    """Whether `target_advice` answers in about a second: a late position, a cached table, or a
    need past the most the card can still gain (0 at once, no table)."""
    space = StateSpace(position.rules)
    return (_late(position) or need > most_gain(space, np.array([position.state(space)]))[0]
            or _cached_cap(position, need) is not None)


def targets_for(position: Position, need: int, use_cache: bool = True) -> Targets:
    """A table that answers `need` points from this position. With EXACT_OPEN boxes open or
    fewer, or when nothing may be cached (use_cache=False, a never-cached game): the subgame of
    the open boxes up to `need`, in float64 (late: a fraction of a second). Else the rule set's
    whole table (float32: choices closer than about 1e-7 may swap), read from the cache or solved
    once and cached (`target_table`), so later goals only read it."""
    if _late(position) or not use_cache or not cacheable(position.rules):
        return solve_targets(position.rules, need, within=position.mask)   # nothing kept: the open boxes only
    return target_table(position.rules, need, use_cache=use_cache)


def target_advice(position: Position, points: int, goal: int, targets: Targets | None = None, *,
                  use_cache: bool = True) -> list[Advice]:
    """Every choice, best first, with its exact P(final total >= goal) from a card holding
    `points` (bonuses included, at most `Position.most_points`). Choices within TIE are ordered
    by their expected points (then the turn engine's order). A goal past the most the card can
    still gain is answered at once: 0 for every choice, ordered by the mean, no target table
    solved. use_cache=False solves the whole table (early positions) afresh, uncached."""
    _position(position), whole_number("points", points), whole_number("goal", goal)
    instance_of("targets", targets, Targets, "a target table (solve_targets or target_table)", optional=True)
    if targets is not None and targets.rules != position.rules:
        raise ValueError(f"targets are for rules {targets.rules.name!r}, the position for {position.rules.name!r}")
    position.points_so_far(points)
    need = max(goal - points, 0)
    space = StateSpace(position.rules) if targets is None else targets.space
    state = np.array([position.state(space)])
    mean = mean_turn(space, position.state(space), use_cache)
    if need > most_gain(space, state)[0]:
        return choices(position, mean, lambda a: np.where(np.isfinite(a), 0.0, a), "probability", mean)
    targets = targets_for(position, need, use_cache) if targets is None else targets
    if need > targets.n_max:   # its last column is P(>= n_max), not P(>= need)
        raise ValueError(f"targets answer at most {targets.n_max} points still needed, not {need}; "
                         f"pass a table solved to {need} or more, or none")
    turn = evaluate(space, box_values(space, targets, state, TargetLanes(targets.n_max + 1)), choose=False)
    return choices(position, turn, lambda a: a[..., need], "probability", mean)


def risk_advice(position: Position, theta: float, utilities: np.ndarray | None = None, *,
                use_cache: bool = True) -> list[Advice]:
    """Every choice, best first, by its certainty equivalent (points still to come) under
    E[exp(theta * points)]: theta < 0 cautious, > 0 bold. Ranked on the certainty-equivalent
    scale (within TIE points: tied), not on the utilities, which all lie within TIE of each
    other once |theta| times the points is large or |theta| tiny."""
    theta = check_theta(theta, _position(position).rules)
    space = StateSpace(position.rules)
    utilities = (risk_utilities(position, theta, use_cache) if utilities is None
                 else check_utilities(utilities, space, theta))
    turn = evaluate(space, box_values(space, utilities, np.array([position.state(space)]),
                                      ExpUtility(theta)), choose=False)
    return choices(position, turn, ExpUtility(theta).certainty, "certainty_equivalent",
                   mean_turn(space, position.state(space), use_cache))


def _position(position) -> Position:
    """`position`, checked to be one: a public entry's first argument, named when it is not."""
    return instance_of("position", position, Position, "a Position (see Position.make)")


def risk_utilities(position: Position, theta: float, use_cache: bool = True) -> np.ndarray:
    """The utilities risk advice reads from `position`: late, the subgame of the open boxes
    (a fraction of a second); early, the whole table (cached, else seconds per theta)."""
    if _late(position):
        return solve_risk(position.rules, [theta], within=position.mask)[:, 0]
    return risk_table(position.rules, theta, use_cache=use_cache)


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


def second_player(first: np.ndarray, targets: Targets | None, second: np.ndarray | None = None,
                  ties: np.ndarray | None = None) -> dict[str, float]:
    """Two players one after the other; the first's final total has distribution `first`
    (P(score = x) for x = 0, 1, ...). The second either plays max-mean with distribution
    `second` (independent), or, given `targets`, plays to beat the known score S, winning with
    V(start, S + 1); with `ties`, the start row of `policy_play.tie_table`, its ties are apart too.
    Returns P(second wins), P(tie) and P(first wins) where known.

    >>> second_player(np.array([0.5, 0.5]), None, np.array([0.25, 0.75]))
    {'second wins': 0.375, 'tie': 0.5, 'first wins': 0.125}
    """
    first = np.asarray(first, dtype=np.float64)
    if (targets is None) == (second is None):
        raise ValueError("give the second player's distribution (second) or its target table (targets), one of them")
    if ties is not None and (targets is None or len(ties) < min(len(first), targets.n_max) + 1):
        raise ValueError("ties must be the start row of tie_table(targets) (needs targets)")
    if targets is None:
        second = np.asarray(second, dtype=np.float64)
        cdf = np.cumsum(second)                                     # P(second <= x)
        at = lambda x: cdf[min(x, len(cdf) - 1)]                    # noqa: E731
        win = sum(p * (1 - at(x)) for x, p in enumerate(first))
        tie = sum(p * second[x] for x, p in enumerate(first) if x < len(second))
        return {"second wins": float(win), "tie": float(tie), "first wins": float(1 - win - tie)}
    start = targets.vector(targets.space.index(0, 0, 0))
    shown = range(min(len(first), targets.n_max))    # a first score S >= n_max counts as unbeatable:
    win = sum(first[x] * start[x + 1] for x in shown)  # off by at most P(S >= n_max) V(start, n_max)
    if ties is None:
        return {"second wins": float(win)}
    tie = sum(first[x] * (ties[x + 1] - start[x + 1]) for x in shown)
    return {"second wins": float(win), "tie": float(tie), "first wins": float(1 - win - tie)}
