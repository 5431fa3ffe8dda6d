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
>>> plan_versus(one_die).values    # lead 0 at the start; leads -5 .. 5 with one card full
12
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..game.rules import Rules
from ..game.states import StateSpace
from .targets import most_gain
from .two_player import _distinct, _levels

__all__ = ["RATE_CORE_US", "ONE_MACHINE_VALUES", "VersusPlan", "plan_versus", "refuse_if_too_big"]

RATE_CORE_US = 0.6            # core-microseconds a (state, lead) value: the target kernel's measured
                              # 0.5-0.7 a (state, lane), the same turn work with a shifted read
BYTES_A_VALUE = 4             # float32 W
ONE_MACHINE_VALUES = 2e7      # solve refuses more: the numpy path holds two layers and a turn's lanes
NODE_CORES, NODE_MEMORY_GB, WALL_HOURS = 64, 256, 24.0    # the cluster the plan sizes


@dataclass(frozen=True)
class VersusPlan:
    rules: Rules
    layers: tuple[tuple[int, int, int], ...]     # (mover's boxes used, waiter's, values)

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
                "layers": [list(layer) for layer in self.layers]}

    def lines(self) -> list[str]:
        gb = BYTES_A_VALUE / 1e9
        return [f"{self.rules.name}: two players, exact values by backward induction",
                f"values (card pairs x open, reachable leads): {self.values:.3g} "
                f"({len(self.layers)} decision layers; largest {self.largest_layer:.3g})",
                f"bytes at {BYTES_A_VALUE} a value (float32): {self.values * gb:,.1f} GB in all, "
                f"{self.largest_layer * gb:,.1f} GB in the largest layer",
                f"work at {RATE_CORE_US} core-us a value (the target kernel's rate): "
                f"{self.core_hours:,.1f} core-hours ({self.core_hours / 24:,.1f} core-days)",
                f"cluster for {WALL_HOURS:.0f} h: {self.nodes()} node(s) of {NODE_CORES} cores and "
                f"{NODE_MEMORY_GB} GB, disk {self.values * gb:,.1f} GB to keep every layer",
                "counted by intervals of points so far: an upper bound of the reachable leads"]


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
    rows = np.stack([least, most, most_gain(space, states)], axis=1)
    return np.unique(rows, axis=0, return_counts=True)


def plan_versus(rules: Rules) -> VersusPlan:
    """The exact count of open, reachable (by intervals) values of every decision layer."""
    space = StateSpace(rules)
    groups = {k: _groups(space, _distinct(space, k)) for k in range(rules.n_boxes + 1)}
    layers = []
    for ka, kb in _levels(rules.n_boxes):
        layers.append((ka, kb, _open_leads(*groups[ka], *groups[kb])))
    return VersusPlan(rules, tuple(layers))


def _open_leads(a, na, b, nb, block: int = 2_000_000) -> int:
    """Open, reachable (by intervals) leads summed over every pair of a mover group and a waiter
    group, a block of mover groups at a time (yatzy has too many pairs of groups for one matrix)."""
    total, rows = 0, max(1, block // max(1, len(b)))
    for i in range(0, len(a), rows):
        a_, na_ = a[i:i + rows], na[i:i + rows]
        low = np.maximum(a_[:, None, 0] - b[None, :, 1], -a_[:, None, 2])
        high = np.minimum(a_[:, None, 1] - b[None, :, 0], b[None, :, 2])
        width = np.maximum(high - low + 1, 0)
        total += int((width * na_[:, None] * nb[None, :]).sum())
    return total


def refuse_if_too_big(plan: VersusPlan) -> None:
    """ValueError with the plan's figures when the single-process solver should not try."""
    if plan.values > ONE_MACHINE_VALUES:
        raise ValueError(f"rules {plan.rules.name!r}: {plan.values:.3g} two-player values is more than one "
                         f"process solves ({ONE_MACHINE_VALUES:.0e}); {plan.core_hours:,.0f} core-hours, "
                         f"{plan.values * BYTES_A_VALUE / 1e9:,.1f} GB: see 'yatzy versus plan'")
