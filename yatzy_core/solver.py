"""Backward induction over turn states: the optimal expected score of a rule set.

Layers are processed from the full card (value 0) back to the empty one; each layer's reachable
states are solved together in blocks by `turn.turn_values`, the one inner loop.
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from tqdm.auto import tqdm

from .rules import Rules, get_rules
from .states import StateSpace
from .turn import turn_values

BLOCK = 1024  # states per block: big enough to amortise Python, small enough to stay in cache


@dataclass
class Solution:
    """The value (expected points still to come) of every turn state of one rule set."""

    rules: Rules
    values: np.ndarray
    seconds: float = 0.0
    space: StateSpace = field(init=False, repr=False)

    def __post_init__(self):
        self.space = StateSpace(self.rules)

    @property
    def expected_score(self) -> float:
        """Optimal expected final score from the empty score card."""
        return float(self.values[self.space.index(0, 0, 0)])

    def value(self, mask: int, upper: int = 0, flag: int = 0) -> float:
        return float(self.values[self.space.index(mask, min(upper, self.rules.upper_cap), flag)])


def solve(rules: str | Rules, progress: bool = True, threads: int | None = None) -> Solution:
    """Solve a rule set by backward induction over its reachable turn states."""
    rules = get_rules(rules)
    space = StateSpace(rules)
    values = np.zeros(space.size)
    threads = threads or min(4, os.cpu_count() or 1)
    start = time.perf_counter()
    layers = [space.layer(k) for k in range(rules.n_boxes)]
    total = sum(len(layer) for layer in layers)
    with tqdm(total=total, desc=f"solving {rules.name}", unit="state", disable=not progress,
              leave=False) as bar, ThreadPoolExecutor(threads) as pool:
        for layer in reversed(layers):
            blocks = [layer[i:i + BLOCK] for i in range(0, len(layer), BLOCK)]

            def work(block):
                return block, turn_values(space, values, block)

            for block, result in pool.map(work, blocks):
                values[block] = result
                bar.update(len(block))
    return Solution(rules, values, time.perf_counter() - start)
