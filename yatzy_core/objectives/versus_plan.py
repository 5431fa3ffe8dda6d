"""What an exact two-player table costs: values, bytes and core-hours, counted over card pairs.

A decision state is (mover's card, waiting player's card, lead d). Only leads that can occur and
whose outcome is still open need a value: with the mover's points so far in [lo_a, hi_a], the
waiter's in [lo_b, hi_b] and g the most points a card can still gain (`targets.most_gain`), d lies
in [lo_a - hi_b, hi_a - lo_b], and the mover has surely won when d > g_b (W = 1) or surely lost
when d < -g_a (W = 0). The count is exact for these intervals, summed over every pair of distinct
cards of each decision layer (cards grouped by (lo, hi, g), so that no pair is visited); it is an
upper bound of the leads reachable, since not every sum in an interval can be scored.

>>> from yatzy_core.game.ruleset import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
>>> plan_versus(one_die).layers    # lead 0 at the start; -6 .. 0 against a full card (0 .. 6 points)
((0, 1, 7), (0, 0, 1))
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

import numpy as np

from ..engine.compiled.lead_intervals import open_leads
from ..game.rules import Rules
from ..game.states import StateSpace
from .targets import max_total, most_gain
from .two_player import _distinct, _levels

__all__ = ["RATE_CORE_US", "TURN_COPIES", "VersusPlan", "plan_versus", "machine_memory", "refuse_if_too_big"]

RATE_CORE_US = 0.6            # core-microseconds a (state, lead) value: measured 0.52 and 0.60 (one
                              # thread, median of 3, 2-core x86_64 under load) by benchmarks/versus.py
                              # for versus_compiled.layer_turns, the target kernel with the lanes
                              # reversed (the numpy path: 38-49, some 80x slower); results/versus.json
BYTES_A_VALUE = 4             # float32 W
TURN_COPIES = 4               # arrays of one turn's (boxes, rolls, movers, lanes) shape alive at once in the
                              # single-process path: the box values of W and of the tie chance, a stage's values
NODE_CORES, NODE_MEMORY_GB, WALL_HOURS = 64, 256, 24.0    # the cluster the plan sizes


@dataclass(frozen=True)
class VersusPlan:
    rules: Rules
    layers: tuple[tuple[int, int, int], ...]     # (mover's boxes used, waiter's, values)
    dense: int = 0                # what this version's solvers compute and store: every card pair
                                  # times every lead lane (2 * max_total + 1), float64
    peak: int = 0                 # bytes the single-process solver holds at its largest layer (`solve_bytes`)

    @property
    def values(self) -> int:
        return sum(v for _, _, v in self.layers)

    @property
    def largest_layer(self) -> int:
        return max(v for _, _, v in self.layers)

    @property
    def core_hours(self) -> float:
        return self.values * RATE_CORE_US / 3.6e9

    def nodes(self, wall_hours: float = WALL_HOURS) -> int:
        """Nodes of NODE_CORES cores for the work in `wall_hours`, and enough of them to hold two
        layers (the one read and the one written) in memory."""
        by_time = self.core_hours / (NODE_CORES * wall_hours)
        by_memory = 2 * self.largest_layer * BYTES_A_VALUE / (NODE_MEMORY_GB * 1e9 * 0.8)
        return max(1, math.ceil(max(by_time, by_memory)))

    def as_dict(self) -> dict:
        return {"rules": self.rules.name, "values": self.values, "bytes": self.values * BYTES_A_VALUE,
                "largest_layer_bytes": self.largest_layer * BYTES_A_VALUE, "rate_core_us": RATE_CORE_US,
                "core_hours": self.core_hours, "nodes": self.nodes(), "node_cores": NODE_CORES,
                "node_memory_gb": NODE_MEMORY_GB, "wall_hours": WALL_HOURS,
                "dense_values": self.dense, "dense_bytes": self.dense * 8, "one_process_peak_bytes": self.peak,
                "layers": [list(layer) for layer in self.layers]}

    def lines(self) -> list[str]:
        gb = BYTES_A_VALUE / 1e9
        return [f"{self.rules.name}: two players, exact values by backward induction",
                f"values (card pairs x open, reachable leads): {self.values:.3g} "
                f"({len(self.layers)} decision layers; largest {self.largest_layer:.3g})",
                f"bytes at {BYTES_A_VALUE} a value (float32): {self.values * gb:,.1f} GB in all, "
                f"{self.largest_layer * gb:,.1f} GB in the largest layer",
                f"work at {RATE_CORE_US} core-us a value (the compiled layer's measured rate): "
                f"{self.core_hours:,.1f} core-hours ({self.core_hours / 24:,.1f} core-days)",
                f"cluster for {WALL_HOURS:.0f} h: {self.nodes()} node(s) of {NODE_CORES} cores and "
                f"{NODE_MEMORY_GB} GB, disk {self.values * gb:,.1f} GB to keep every layer",
                "counted by intervals of points so far: an upper bound of the reachable leads",
                f"this version's solvers (one process, Dask) keep every lead lane of every pair: "
                f"{self.dense:.3g} values, {self.dense * 8 / 1e9:,.1f} GB in float64; one process holds "
                f"about {self.peak / 1e9:,.2f} GB at its largest layer"]


def points_so_far(space: StateSpace, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(least, most) points a card in each state can hold: used boxes at 0 or their maxima, the
    upper total as stored (capped: at least the cap), its bonus once reached, and a Yahtzee
    bonus per other used box once the Yahtzee box holds a score."""
    rules = space.rules
    mask, upper, flag = space.decode(states)
    used = (mask[:, None] >> np.arange(rules.n_boxes)) & 1 == 1
    is_upper = rules.upper_faces > 0
    lower_most = (used * np.where(is_upper, 0, rules.box_most)).sum(axis=1)
    upper_most = (used * np.where(is_upper, rules.box_most, 0)).sum(axis=1)
    least, most = upper.astype(np.int64), lower_most.astype(np.int64)
    if rules.tracks_upper:
        capped = upper >= rules.upper_cap
        most = most + np.where(capped, upper_most, upper)
        bonus = np.where(upper >= rules.upper_bonus_threshold, rules.upper_bonus, 0)
        least, most = least + bonus, most + bonus
    else:
        most = most + upper_most
    if rules.tracks_yahtzee_bonus:
        most = most + np.where(flag == 1, rules.yahtzee_bonus * (used.sum(axis=1) - 1), 0)
    return least, most


def _groups(space: StateSpace, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (least, most, gain) rows of these cards and how many cards have each."""
    least, most = points_so_far(space, states)
    rows = np.stack([least, most, most_gain(space, states)], axis=1).astype(np.int64)
    span = int(rows.max(initial=0)) + 1
    keys, counts = np.unique((rows[:, 0] * span + rows[:, 1]) * span + rows[:, 2], return_counts=True)
    return np.stack([keys // (span * span), keys // span % span, keys % span], axis=1), counts


def plan_versus(rules: Rules) -> VersusPlan:
    """The exact count of open, reachable (by intervals) values of every decision layer."""
    space = StateSpace(rules)
    groups = {k: _groups(space, _distinct(space, k)) for k in range(rules.n_boxes + 1)}
    layers, dense = [], 0
    cards = {k: int(counts.sum()) for k, (_, counts) in groups.items()}
    for ka, kb in _levels(rules.n_boxes):
        layers.append((ka, kb, open_leads(*groups[ka], *groups[kb])))
        dense += cards[ka] * cards[kb] * (2 * max_total(rules) + 1)
    return VersusPlan(rules, tuple(layers), dense, solve_bytes(rules, cards))


def solve_bytes(rules: Rules, cards: dict) -> int:
    """Bytes the single-process solver (`two_player.solve_versus`) holds at its peak: a layer's W
    and tie chance and those of the layer it reads (float64, every lead lane), and TURN_COPIES
    arrays of one waiter's turns (every box, roll, mover and lane); `cards[k]`: the distinct
    cards with k boxes used.

    >>> from yatzy_core.game.ruleset import Rules
    >>> from yatzy_core.game.scoring import Box, total
    >>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
    >>> solve_bytes(one_die, {0: 1, 1: 1})    # 13 lanes, layer (0, 0): 2 x 8 x (1 + 1) x 13 + 4 x 8 x 1 x 6 x 1 x 13
    2912
    """
    width, n = 2 * max_total(rules) + 1, rules.n_boxes
    peak = 0
    for ka, kb in _levels(n):
        read = 0 if (ka + 1, kb) == (n, n) else cards[kb] * cards[ka + 1]
        layers = 2 * 8 * (cards[ka] * cards[kb] + read) * width
        turn = TURN_COPIES * 8 * n * rules.dice.n_rolls * cards[ka] * width
        peak = max(peak, layers + turn)
    return peak


def machine_memory() -> int:
    """Bytes of memory free for a solve: `engine.solver.available_memory` (MemAvailable, the
    process's and its cgroups' limits), else the machine's physical memory."""
    from ..engine.solver import available_memory
    return available_memory() or os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def refuse_if_too_big(plan: VersusPlan, memory: int | None = None) -> None:
    """ValueError with the plan's figures when the memory the single-process solver needs at its
    peak layer (`VersusPlan.peak`) is more than `memory` (default: `machine_memory`)."""
    memory = machine_memory() if memory is None else memory
    if plan.peak > memory:
        raise ValueError(f"rules {plan.rules.name!r}: one process needs about {plan.peak / 1e9:,.2f} GB at its "
                         f"largest layer, more than the {memory / 1e9:,.2f} GB free here; {plan.values:.3g} "
                         f"two-player values, {plan.core_hours:,.0f} core-hours: see 'yatzy versus plan'; "
                         f"--scheduler runs it on a Dask cluster")
