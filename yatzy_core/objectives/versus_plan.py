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
from dataclasses import dataclass

import numpy as np

from ..engine.compiled.lead_intervals import open_leads
from ..game.rules import Rules
from ..game.states import StateSpace
from .targets import max_total, most_gain
from .two_player import _distinct, _levels

__all__ = ["RATE_CORE_US", "ONE_MACHINE_VALUES", "VersusPlan", "plan_versus", "refuse_if_too_big"]

RATE_CORE_US = 0.6            # core-microseconds a (state, lead) value: measured 0.52 and 0.60 (one
                              # thread, median of 3, 2-core x86_64 under load) by benchmarks/versus.py
                              # for versus_compiled.layer_turns, the target kernel with the lanes
                              # reversed (the numpy path: 38-49, some 80x slower); results/versus.json
BYTES_A_VALUE = 4             # float32 W
ONE_MACHINE_VALUES = 2e7      # solve refuses more: the numpy path holds two layers and a turn's lanes
NODE_CORES, NODE_MEMORY_GB, WALL_HOURS = 64, 256, 24.0    # the cluster the plan sizes


@dataclass(frozen=True)
class VersusPlan:
    rules: Rules
    layers: tuple[tuple[int, int, int], ...]     # (mover's boxes used, waiter's, values)
    dense: int = 0                # what this version's solvers compute and store: every card pair
                                  # times every lead lane (2 * max_total + 1), float64

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
                "dense_values": self.dense, "dense_bytes": self.dense * 8,
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
                f"{self.dense:.3g} values, {self.dense * 8 / 1e9:,.1f} GB in float64"]


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
    for ka, kb in _levels(rules.n_boxes):
        layers.append((ka, kb, open_leads(*groups[ka], *groups[kb])))
        dense += int(groups[ka][1].sum()) * int(groups[kb][1].sum()) * (2 * max_total(rules) + 1)
    return VersusPlan(rules, tuple(layers), dense)


def refuse_if_too_big(plan: VersusPlan) -> None:
    """ValueError with the plan's figures when the single-process solver should not try."""
    if plan.values > ONE_MACHINE_VALUES:
        raise ValueError(f"rules {plan.rules.name!r}: {plan.values:.3g} two-player values is more than one "
                         f"process solves ({ONE_MACHINE_VALUES:.0e}); {plan.core_hours:,.0f} core-hours, "
                         f"{plan.values * BYTES_A_VALUE / 1e9:,.1f} GB: see 'yatzy versus plan'; "
                         f"--scheduler runs it on a Dask cluster")
