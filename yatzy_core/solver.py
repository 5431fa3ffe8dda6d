"""Backward induction over turn states: the optimal expected score of a rule set.

Layers are processed from the full card (worth 0 more points) back to the empty one; within a
layer every reachable state depends only on later layers, so a layer is solved as one block.
The one inner loop is `kernel.turn_block` (compiled); `turn.turn_values` is the same computation
in plain numpy, kept as the readable reference and selectable with backend="numpy".
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from tqdm.auto import tqdm

from .rules import Rules, get_rules
from .states import StateSpace

BLOCK = 1 << 15     # states per kernel call: keeps the progress bar moving
NUMPY_BLOCK = 1024  # numpy works on (462, block) arrays that should stay in cache


@dataclass
class Solution:
    """The value (expected points still to come) of every turn state of one rule set, and, when
    computed, the second moment of those points under the optimal policy."""

    rules: Rules
    values: np.ndarray
    seconds: float = 0.0
    second: np.ndarray | None = None
    space: StateSpace = field(init=False, repr=False)

    def __post_init__(self):
        self.space = StateSpace(self.rules)

    @property
    def expected_score(self) -> float:
        """Optimal expected final score from the empty score card."""
        return float(self.values[self.space.index(0, 0, 0)])

    @property
    def std(self) -> float:
        """Exact standard deviation of the final score under optimal play (no simulation)."""
        if self.second is None:
            raise ValueError("this solution was computed without second moments "
                             "(solve with moments=True and the numba backend)")
        start = self.space.index(0, 0, 0)
        return float(np.sqrt(self.second[start] - self.values[start] ** 2))

    def value(self, mask: int, upper: int = 0, flag: int = 0) -> float:
        """Expected points still to come from the start of a turn in this state."""
        return float(self.values[self.space.index(mask, min(upper, self.rules.upper_cap), flag)])


def solve(rules: str | Rules, progress: bool = True, backend: str = "numba",
          moments: bool = True) -> Solution:
    """Solve a rule set by backward induction over its reachable turn states.

    With moments (numba backend only) the second moment of the points to come is carried along
    the optimal policy too, which gives `Solution.std`; it costs about twice the time.
    """
    rules = get_rules(rules)
    if backend not in ("numba", "numpy"):
        raise ValueError(f"unknown backend {backend!r}; choose 'numba' or 'numpy'")
    space = StateSpace(rules)
    values = np.zeros(space.size)
    second = np.zeros(space.size) if backend == "numba" and moments else None
    step = _numba_step(rules, values, second) if backend == "numba" else _numpy_step(space, values)
    block = BLOCK if backend == "numba" else NUMPY_BLOCK
    start = time.perf_counter()
    layers = [space.layer(k) for k in range(rules.n_boxes)]
    with tqdm(total=sum(map(len, layers)), desc=f"solving {rules.name}", unit="state",
              disable=not progress, leave=False) as bar:
        for layer in reversed(layers):
            for i in range(0, len(layer), block):
                step(layer[i:i + block])
                bar.update(len(layer[i:i + block]))
    return Solution(rules, values, time.perf_counter() - start, second)


def _numba_step(rules, values, second):
    from .kernel import tables, turn_block

    t = tables(rules)

    def step(states):
        if second is None:
            values[states] = turn_block(rules, t, values, states)
        else:
            values[states], second[states] = turn_block(rules, t, values, states, second)
    return step


def _numpy_step(space, values):
    from .turn import turn_values

    def step(states):
        values[states] = turn_values(space, values, states)
    return step
