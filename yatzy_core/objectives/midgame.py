"""The final-score distribution from any point of a game, by the same forward pass as from the start.

A game in progress is a turn state (used boxes, upper total, Yahtzee flag) with the points
already scored, either at the start of a turn or inside one (an `Position`: the dice
showing and the rerolls left). The rest of a started turn follows the policy's choices
(`turn.evaluate`, the documented tie rule); from the next turn on `forward.push_layers` carries
the points-so-far rows to the full card.

>>> from yatzy_core.engine.cache import get_solution
>>> solution = get_solution("yahtzee-no-bonus", progress=False)
>>> only_chance = (1 << 13) - 1 - (1 << 12)
>>> d = position_distribution(solution.space.index(only_chance, 0), solution, points=200)
>>> int(np.flatnonzero(d.probabilities)[0]), d.max_score, round(d.mean, 6)   # 200 + chance
(205, 230, 223.333333)
"""
from __future__ import annotations

from fractions import Fraction  # noqa: F401 (the doctest)

import numpy as np

from ..engine.compiled.forward import Rows, push_layers
from ..engine.position import Position, most_points, upper_totals
from ..engine.solutions import solution_for
from ..engine.solver import Solution
from ..engine.turn import ExpUtility, TargetLanes, box_values, evaluate, score_box
from ..engine.turn_choices import finish_turn, first_choice
from ..game.checks import instance_of, whole_number
from ..game.states import StateSpace
from .distribution import ScoreDistribution, final_scores, kind_box
from .policy_play import policy_play, policy_tables, risk_play
from .risk import RiskTable
from .targets import Targets, most_gain
from .targets import solve_targets  # noqa: F401 (the doctest)

__all__ = ["position_distribution", "target_position_distribution", "risk_position_distribution",
           "objective_position_distribution", "mean_turn", "rows_of"]


def position_distribution(where, solution: Solution, points: int = 0) -> ScoreDistribution:
    """P(final score = x) under optimal play from `where`, a turn state index (start of a turn)
    or an `Position` (inside a turn), with `points` already scored (all boxes and
    bonuses; at least the position's upper total)."""
    space = instance_of("solution", solution, Solution, "a Solution (solve or get_solution)").space
    state, position = _where(where, solution.rules, space, points)
    if position is None:
        rows = rows_of([state], [points], [1.0], space)
    else:
        turn = evaluate(space, box_values(space, solution.values, np.array([state])))

        def choose(j, live):     # the engine's own choices: a keeper (maybe all dice), then a box
            return ((turn.box[live, 0], None) if j == 0 else
                    (np.full(len(live), -1), turn.keep[j - 1][live, 0]))
        rows = rows_of(*_rest_of_turn(space, state, position, points, choose), space)
    if len(rows.states) and space.boxes_used[space.decode(rows.states[0])[0]] < space.n_boxes:
        rows = push_layers(solution, rows, kind_box(solution.rules))[0]
    return ScoreDistribution(solution.rules.name, final_scores(rows))


def target_position_distribution(where, targets: Targets, goal: int, points: int = 0) -> ScoreDistribution:
    """P(final score = x) when every choice from `where` (a turn state index or a `Position`,
    with `points` already scored) is played to reach `goal` points in all: the rest of a
    started turn by `first_choice` (the choice `advise(position, objective=AtLeast(goal, points))` ranks
    first), later turns by the compiled target policy (`policy_play`). `targets` must answer
    the points still needed (unless they are more than the card can still gain: then every
    choice is hopeless and the mean decides).

    >>> from yatzy_core.game.rules import get_rules
    >>> rules = get_rules("yahtzee-no-bonus")
    >>> chance = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
    >>> p = Position.make(chance, dice="66611", rolls_left=1)
    >>> d = target_position_distribution(p, solve_targets(chance, 30), 24)
    >>> Fraction(d.p_at_least(24)).limit_denominator(100)      # keep 6 6 6: two dice make 6 or more
    Fraction(13, 18)
    """
    goal = whole_number("goal", goal)
    space = instance_of("targets", targets, Targets, "a target table (solve_targets or target_table)").space
    state, position = _where(where, targets.rules, space, points, "target table")
    need = max(goal - points, 0)
    most = int(most_gain(space, [state])[0])
    hopeless = need > most
    if need > targets.n_max and most > targets.n_max:   # else every need past n_max is hopeless
        raise ValueError(f"targets answer at most {targets.n_max} points still needed, not {need}")

    def policy_turn(mean):
        if hopeless:                   # every choice 0: only the choices' order (by the mean) counts
            return mean, lambda a: np.where(np.isfinite(a), 0.0, a)
        lanes = TargetLanes(targets.n_max + 1)
        return (evaluate(space, box_values(space, targets, np.array([state]), lanes), choose=False),
                lambda a: a[..., need])
    start = _policy_start(space, state, position, policy_turn)   # points counted from here
    return _shifted(policy_play(space, policy_tables(space, targets=targets), goal - points, start), points)


def risk_position_distribution(where, table: RiskTable, points: int = 0) -> ScoreDistribution:
    """P(final score = x) when every choice from `where` (as in `target_position_distribution`)
    maximises E[sign(theta) exp(theta * points)] (`table`: its `RiskTable`): the rest of a started
    turn as `advise(position, objective=Risk(theta))` ranks first, later turns by the compiled risk policy
    (`policy_play.risk_play`)."""
    space = instance_of("table", table, RiskTable, "a RiskTable (risk_table)").space
    state, position = _where(where, space.rules, space, points, "risk table")
    utility = ExpUtility(table.theta)

    def policy_turn(mean):
        return (evaluate(space, box_values(space, table.utilities, np.array([state]), utility), choose=False),
                utility.certainty)
    start = _policy_start(space, state, position, policy_turn)
    return _shifted(risk_play(table, start=start), points)


def objective_position_distribution(where, objective, table, points: int = 0) -> ScoreDistribution:
    """P(final score = x) when every choice from `where` (as in `target_position_distribution`)
    is played for `objective` (an `AdviceObjective` whose whole-game policy is its
    `policy_tables` of `table`): the rest of a started turn as `advise` ranks first (its `turn`,
    ties by its `tie_break`), later turns by the compiled policy (`policy_play`)."""
    space = table.space
    state, position = _where(where, space.rules, space, points, "table")

    def policy_turn(mean):
        turn, pick = objective.turn(position, table, mean=mean)
        return turn, pick, objective.tie_break(turn, mean)
    start = _policy_start(space, state, position, policy_turn)
    return _shifted(policy_play(space, objective.policy_tables(table), objective.lane_goal(table, points), start),
                    points)


def _where(where, rules, space, points, table="solution") -> tuple[int, Position | None]:
    """The turn state of `where` (a state index or a `Position` of `rules`) and the position."""
    whole_number("points", points)
    if isinstance(where, Position):
        if where.rules != rules:
            raise ValueError(f"the {table} is for rules {rules.name!r}, "
                             f"the position for {where.rules.name!r}")
        where.points_so_far(points)
        return where.state(space), where
    if isinstance(where, (int, np.integer)) and not isinstance(where, bool):
        if not 0 <= where < space.size or not space.reachable[where]:
            raise ValueError(f"state {where} is not a reachable turn state of {rules.name!r}")
        most = _state_most_points(space, int(where))
        if points > most:
            raise ValueError(f"points {points} is more than a card in state {where} can hold: at most {most}")
        return int(where), None
    raise TypeError(f"where must be a state index or an Position, got {type(where).__name__}")


def _state_most_points(space: StateSpace, state: int) -> int:
    """`position.most_points` of a turn state, whose upper total is stored capped at the
    threshold (a capped one may be anything the used upper boxes can make)."""
    mask, upper, flag = (int(x) for x in space.decode(state))
    rules = space.rules
    used = {b.name for i, b in enumerate(rules.boxes) if mask >> i & 1}
    if not rules.tracks_upper or upper >= rules.upper_cap:
        upper = max(upper_totals(rules, used))
    return most_points(rules, used, upper, bool(flag))


def mean_turn(space: StateSpace, state: int, use_cache: bool = True):
    """The max-mean turn of `state`: what orders choices equally good for another policy (a
    goal met or out of reach: every choice is; then play for the mean). use_cache=False: the
    max-mean table solved afresh, neither read from the cache nor written."""
    values = solution_for(space.rules, None, use_cache=use_cache, progress=True).values   # a bar when solved
    return evaluate(space, box_values(space, values, np.array([state])), choose=False)


def _shifted(play, points: int) -> ScoreDistribution:
    """The distribution of `play` (points counted from the position) moved by the points already
    scored: the policies' passes count from 0, since their rows reach only as far as the used
    boxes could have given, and typed points need not be those (a goal needs goal - points)."""
    d = play.distribution
    return ScoreDistribution(d.rules_name, np.r_[np.zeros(points), d.probabilities])


def _policy_start(space, state, position, policy_turn):
    """(states, points from here, probabilities) where the policy's forward pass starts: the
    state itself at a turn start, else the next turn's states after the rest of this turn
    played by `first_choice` of the policy's turn (`policy_turn(mean)`: its values and their
    pick, and maybe the turn that breaks its ties, given the max-mean turn that breaks them
    otherwise)."""
    if position is None:
        return [state], [0], [1.0]
    mean, rules = mean_turn(space, state), space.rules
    turn, pick, *tie = policy_turn(mean)       # (a third: the turn that breaks its ties, else the mean)
    second = tie[0] if tie else mean

    def choose(j, live):
        picked = [first_choice(rules, turn, second, pick, int(r), j) for r in live]
        return (np.array([i if kind == "box" else -1 for kind, i in picked], np.int64),
                np.array([i if kind == "keep" else 0 for kind, i in picked], np.int64))
    return _rest_of_turn(space, state, position, 0, choose)


def _rest_of_turn(space, state, position, points, choose):
    """(next states, points, probabilities) after this turn is played out from the position's
    dice by `choose` (`turn_choices.finish_turn`)."""
    ends = finish_turn(space, position.roll, position.rolls_left, choose)
    rolls, boxes = np.nonzero(ends)
    scored = score_box(space, state, rolls, boxes)
    return scored.next_state, points + scored.points, ends[rolls, boxes]


def rows_of(states, points, probs, space) -> Rows:
    """Rows of (state, points so far, probability) triples (repeats added up), each state
    replaced by its representative.

    >>> from yatzy_core.game.states import StateSpace
    >>> from yatzy_core.game.rules import get_rules
    >>> r = rows_of([5, 5, 3], [2, 4, 1], [0.25, 0.5, 0.25], StateSpace(get_rules("yahtzee-no-bonus")))
    >>> r.states.tolist(), r.lo.tolist(), r.data.tolist()
    ([3, 5], [1, 2], [0.25, 0.25, 0.0, 0.5])
    """
    states = space.representatives(np.asarray(states, np.int64))
    points, probs = np.asarray(points, np.int64), np.asarray(probs, np.float64)
    unique, inverse = np.unique(states, return_inverse=True)
    lo = np.full(len(unique), np.iinfo(np.int64).max)
    hi = np.full(len(unique), -1)
    np.minimum.at(lo, inverse, points)
    np.maximum.at(hi, inverse, points)
    start = np.r_[0, np.cumsum(hi - lo + 1)]
    data = np.zeros(start[-1])
    np.add.at(data, start[inverse] + points - lo[inverse], probs)
    return Rows(unique, lo, start, data)
