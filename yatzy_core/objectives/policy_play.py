"""Exact final-score distributions of goal-seeking play: a forward pass over (state, points so far).

Max-mean play has the same choice whatever the points so far, so `distribution.py` pushes one
distribution per state. A target policy does not: its choice depends on the points still needed,
so each state carries its points-so-far distribution and every points value is played with its
own need. A risk policy's choice depends on the state only. Both are pushed by the compiled
forward pass (`engine.compiled.policy_forward`); choices equally good for the policy (a goal
already met or out of reach) are ordered by the mean. `tie_table` is the beat policy's ties,
a compiled backward pass along the same choices.

>>> from yatzy_core.game.rules import get_rules
>>> rules = get_rules("yahtzee-no-bonus")
>>> small = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
>>> t = solve_targets(small, 30)
>>> d = target_distribution(t, 24)
>>> round(float(d[24:].sum()), 4), round(t.p_at_least(24), 4)   # P(chance >= 24) playing for it
(0.5431, 0.5431)
"""
from __future__ import annotations

import time

import numpy as np

from ..game.checks import instance_of, whole_number
from ..engine.chunked import for_each_chunk
from ..engine.compiled.forward import start_rows
from ..engine.compiled.layout import tables, vectorizing
from ..engine.compiled.policy_forward import push_policy
from ..engine.compiled.policy_ties import tie_layer
from ..engine.basics import TIE
from ..engine.compiled.policy_turn import PolicyTables, exp_weights, n_slots_most, score_classes, span
from ..engine.solutions import solution_for

from ..game.states import StateSpace
from .distribution import OptimalPlay, ScoreDistribution, final_scores, kind_box
from .risk import RiskTable
from .targets import Targets, solve_targets  # noqa: F401 (solve_targets: the doctest)

__all__ = ["policy_play", "target_play", "risk_play", "target_distribution", "risk_distribution",
           "policy_tables", "tie_table", "second_player"]


def policy_play(space: StateSpace, pt: PolicyTables, goal: int = 0, start=None,
                progress: bool = False) -> OptimalPlay:
    """The exact results of playing the policy of `pt` (`policy_tables`: the objective's data;
    `goal`: the points in all a target table's need lanes play for), from `start` = (states,
    points so far, probabilities) (default: the empty card), by the compiled forward pass
    (`policy_forward.push_policy`). Ties between choices equally good for the policy are broken
    by its tie-break values (`policy_turn`). progress: a tqdm bar of the turns."""
    rules = space.rules
    rows = start_rows(*(start or ([space.index(0, 0, 0)], [0], [1.0])))
    clock = time.perf_counter()
    final, acc = push_policy(space, rows, pt, int(goal), kind_box(rules), progress)
    n = space.n_boxes
    expectations = {name: float(v) for name, v in zip(rules.box_names, acc[:n])}
    expectations.update(upper_bonus=float(acc[n]), yahtzee_bonus=float(acc[n + 1]),
                        total=float(acc[:n + 2].sum()))
    bonuses = {"upper_bonus": float(acc[n + 2]) if rules.tracks_upper else 0.0,
               "n_of_a_kind": float(acc[n + 3])}
    return OptimalPlay(rules.name, expectations, bonuses,
                       ScoreDistribution(rules.name, final_scores(final)),
                       {"seconds": time.perf_counter() - clock})


def policy_tables(space: StateSpace, primary: np.ndarray | None = None, theta: float = 0.0,
                  points: bool | None = None, targets: Targets | None = None,
                  tie_break: np.ndarray | None = None) -> PolicyTables:
    """What the compiled policy reads, as data (no mode): a state lane maximises
    exp(theta p) * primary[next] (+ p with `points`: the mean) over its choices, its ties within
    TIE on the certainty-equivalent scale of theta (theta = 0: the plain one); with `targets`
    the lanes are the target table's needs instead. Ties are broken by p + tie_break[next]
    (default: the max-mean values). `points` defaults to True exactly when the primary is the
    default max-mean values (and no targets), so `policy_tables(space)` is the mean policy."""
    if points is None:
        points = primary is None and targets is None
    mean = solution_for(space.rules, None, progress=False).values if primary is None or tie_break is None else None
    s, t = tables(space.rules)
    n = span(s, t)
    weight, ratio = exp_weights(float(theta), n)
    dummy, none = np.zeros(1), np.zeros(1, np.int64)
    return PolicyTables(mean if tie_break is None else np.ascontiguousarray(tie_break, np.float64),
                        targets.data if targets is not None else dummy,
                        targets.offset if targets is not None else none,
                        targets.band if targets is not None else none,
                        mean if primary is None else np.ascontiguousarray(primary, np.float64),
                        weight, np.arange(n, dtype=np.float64) if points else np.zeros(n),
                        np.array([ratio, 0.0] if theta else [1.0, TIE]),
                        np.array([int(targets is not None)], np.int64),
                        *score_classes(t.score))


def target_play(targets: Targets, goal: int, start=None, progress: bool = False) -> OptimalPlay:
    """The exact results of playing every turn to reach `goal` points in all (the target policy)."""
    goal = whole_number("goal", goal)
    if goal > targets.n_max:
        raise ValueError(f"goal must be at most the table's n_max {targets.n_max}, got {goal}")
    return policy_play(targets.space, policy_tables(targets.space, targets=targets), goal, start, progress)


def risk_play(table: RiskTable, start=None, progress: bool = False) -> OptimalPlay:
    """The exact results of maximising E[sign(theta) exp(theta * points)] (`table`: its
    `RiskTable`, whose utilities are already the kernel's contiguous float64)."""
    instance_of("table", table, RiskTable, "a RiskTable (risk_table)")
    return policy_play(table.space, policy_tables(table.space, table.utilities, table.theta), start=start,
                       progress=progress)


def target_distribution(targets: Targets, goal: int) -> np.ndarray:
    """P(final total = x) when every turn is played to reach `goal` (the target policy)."""
    return target_play(targets, goal).distribution.probabilities


def risk_distribution(table: RiskTable) -> np.ndarray:
    """P(final total = x) under the policy that maximises E[exp(theta * points)] (`table`: its
    `RiskTable`), its ties within TIE on the certainty-equivalent scale broken by the mean."""
    return risk_play(table).distribution.probabilities


def tie_table(targets: Targets, dtype=np.float64, progress=None) -> np.ndarray:
    """(space.size, n_max + 1) Z(s, n) = P(gaining at least n - 1 more points) when every turn
    is played for n (the target policy of `targets`, ties broken by the mean as in
    `target_play`). Playing to beat a known score S is playing for n = S + 1: it wins with
    V(start, S + 1) and ties with Z(start, S + 1) - V(start, S + 1). One compiled backward pass
    along the policy (`policy_ties.tie_layer`, states in parallel); `dtype=np.float32`
    halves the memory; `progress(used)` is called before each layer.

    >>> from yatzy_core.game.rules import get_rules
    >>> rules = get_rules("yahtzee-no-bonus")
    >>> small = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
    >>> t = solve_targets(small, 30)
    >>> w = tie_table(t)[0]
    >>> round(float(w[24] - t.vector(0)[24]), 4)   # P(chance = 23) playing for 24
    0.0968
    """
    space, n_max = targets.space, targets.n_max
    s, t = tables(space.rules)
    pt = policy_tables(space, targets=targets)
    W = np.zeros((space.size, n_max + 1), dtype=dtype)
    for used in range(space.n_boxes, -1, -1):
        if progress is not None:
            progress(used)
        layer = space.layer(used)
        if used == space.n_boxes:
            W[layer] = np.arange(n_max + 1) <= 1
            continue
        reps = space.representatives(layer)   # states that cannot differ share their row
        with vectorizing():   # a chunk of states at a time: Ctrl-C acts between chunks
            for_each_chunk(np.unique(reps), lambda part: tie_layer(part, W, s, t, pt, n_slots_most(pt, t)))
        W[layer] = W[reps]
    return W


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
