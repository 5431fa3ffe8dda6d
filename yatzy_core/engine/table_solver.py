"""One solver for every table of lanes per state (the targets' and the risk appetites' tables).

An objective's table module describes its backward operator once (`Operator`): the lanes each
state stores, the full card's values, and its combine, both as the compiled kernel runs it
(points shift the probabilities of the targets, or multiply the utilities by a weight) and as
the Python turn engine runs it (`lanes`, an `engine.turn.Objective`). `solve_table` then does the
rest for every table alike: the layers backwards (`StateSpace.backward`: only the distinct states
are solved, the others take their representative's values), the kernel on chunks of each layer
through `chunked.for_each_chunk` (Ctrl-C and `request_stop` honoured between chunks, a progress
bar of the states solved), the layout (each state's band of lanes and where it starts).
`reference_table` runs the same layers through the turn engine (numpy, float64): the check of
the compiled path on small games. The objective owns its operator: the full card's value per
state (`choice.terminal_values`), a combine that sees the scored parts and its choice rule
(`turn.Objective`). The target kernel takes its maxima lane by lane, so a lexicographic choice
rule (two lanes chosen together) runs on the pair kernel instead (`compiled.policy_table`: the
compiled policy's choices worked backwards), its combine given as data (`Operator.affine`),
bit for bit the turn engine's; `compiled=False` runs the turn engine itself on the same layers
and chunks, with the same progress and Ctrl-C.

>>> from yatzy_core.game.rules import get_rules
>>> from yatzy_core.objectives.targets import target_operator
>>> space = StateSpace(get_rules("yahtzee-no-bonus"))
>>> ones_open = (1 << 13) - 2                 # P(at least n more points) with only the ones open
>>> solved = solve_table(space, target_operator(space.rules, 2), within=ones_open)
>>> reference = reference_table(space, target_operator(space.rules, 2), within=ones_open)
>>> start = space.index(ones_open, 0)
>>> round(float(solved.data[solved.offset[start]]), 4), round(float(reference[start][1]), 4)
(0.9351, 0.9351)
>>> round(1 - (5 / 6) ** 15, 4)               # at least one 1 among 15 dice thrown
0.9351
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..game.states import StateSpace
from .chunked import for_each_chunk
from .compiled.first_use import announce_compiling
from .progress import bar as bar_of, progress_on
from .compiled.layout import tables, vectorizing
from .compiled.policy_table import pair_layer
from .compiled.policy_turn import PolicyTables, n_slots_most, score_classes, span
from .compiled.target_kernel import solve_states
from .basics import TIE
from .choice import Lexicographic, choice_rule, terminal_values
from .turn import Objective, turn_values

__all__ = ["Operator", "Solved", "table_layout", "solve_table", "reference_table"]


@dataclass(frozen=True)
class Operator:
    """A table's backward operator, as the compiled kernel and as the turn engine run it."""

    lanes: Objective                # the turn engine's terminal and combine (the reference path)
    widths: Callable                # (space, distinct states) -> lanes each stores (its band)
    multiply: bool                  # the kernel's combine: utilities times weight[points] (else n shifted by points)
    weight: np.ndarray = field(default_factory=lambda: np.ones((1, 1)))   # (points, lanes) when multiply
    pad: int = 0                    # the shifted reads' padding (targets: the most points a box scores)
    dense: bool = False             # every state stores its lanes (copied from its representative),
                                    # else it points at its representative's
    terminal: np.ndarray | None = None   # the full card's lanes 1 .., stored as they are (banded: each full
                                         # card's band of them; None: the kernel's own: a full card's band
                                         # is empty); `per_state`: `lanes`' own
    per_state: bool = False         # the full card's values differ by state (`choice.terminal_values`; dense only)
    compiled: bool = True           # a kernel runs it (else the turn engine does: dense only)
    affine: Callable | None = None  # a lexicographic operator's primary lane as `policy_table` runs it: points
                                    # p -> (weight, shift), weight[p] * primary(next) + shift[p]; its
                                    # tie-break lane gains p (two lanes, dense, compiled)

    def __post_init__(self):
        """Refuse fields that only work on dense rows (the turn engine and per-state terminals
        read and write `rows`, which a table of representatives' bands does not have)."""
        for name in ("per_state", "compiled"):
            if not self.dense and getattr(self, name) == (name == "per_state"):
                raise ValueError(f"{name}: {name}={getattr(self, name)} needs dense=True (rows of lanes per state)")


@dataclass
class Solved:
    """A solved table: each state's `band` of lanes starts at `offset` in `data`."""

    band: np.ndarray
    offset: np.ndarray
    data: np.ndarray
    seconds: float


def table_layout(space: StateSpace, operator: Operator, layers) -> tuple[np.ndarray, np.ndarray, int]:
    """Each state's band and where it starts in the data, and the data's length, for `layers`
    (`StateSpace.backward`): only distinct states own storage, the others point at their
    representative's, unless dense (every state its own lanes). A table read from disk is laid
    out by this too."""
    band = np.zeros(space.size, dtype=np.int64)
    offset = np.zeros(space.size, dtype=np.int64)
    if operator.dense:
        width = int(operator.widths(space, np.zeros(1, dtype=np.int64))[0])
        band[:] = width
        offset[:] = np.arange(space.size, dtype=np.int64) * width
        return band, offset, space.size * width
    used = 0
    for _, distinct, _ in layers:
        band[distinct] = operator.widths(space, distinct)
        offset[distinct] = used + np.cumsum(band[distinct]) - band[distinct]
        used += int(band[distinct].sum())
    for layer, _, reps in layers:
        band[layer], offset[layer] = band[reps], offset[reps]
    return band, offset, used


def solve_table(space: StateSpace, operator: Operator, within: int = 0, dtype=np.float64,
                progress: bool = False, desc: str = "table") -> Solved:
    """Every state's lanes (whose used boxes include `within`) by one backward pass of the
    compiled kernel, chunk by chunk (see the module); `progress`: a bar of the states solved."""
    s, t = tables(space.rules)
    start = time.perf_counter()
    layers = list(space.backward(space.n_boxes, within))   # the full card too
    band, offset, used = table_layout(space, operator, layers)
    data = np.zeros(max(used, 1), dtype=dtype)
    rows = data[:used].reshape(space.size, -1) if operator.dense else None

    def kernel(states):
        with vectorizing():
            solve_states(states, data, offset, band, s, t, operator.pad, operator.multiply, operator.weight)

    def engine(states):   # the turn engine on the lanes stored so far (dense rows)
        rows[states] = turn_values(space, rows, states, operator.lanes)

    lexicographic = isinstance(choice_rule(operator.lanes), Lexicographic)
    pairs = _Pairs(space, operator, rows) if operator.compiled and lexicographic else None
    if progress_on(progress) and operator.compiled:
        announce_compiling(*(("policy_table.pair_layer", "the lexicographic tables' kernel", 60) if pairs else
                             ("target_kernel.solve_states", "the target and risk tables' kernel", 40)))
    full_card = terminal_values(operator.lanes, space) if operator.per_state else None
    with bar_of(sum(len(d) for _, d, _ in layers), desc, progress) as bar:
        for layer, distinct, reps in layers:
            full = len(layer) and space.boxes_used[space.decode(layer[0])[0]] == space.n_boxes
            if full and (operator.terminal is not None or operator.per_state):
                if operator.dense:
                    rows[layer] = full_card[layer] if operator.per_state else operator.terminal
                else:
                    _store_terminal(data, offset[distinct], band[distinct], operator.terminal)
                bar.update(len(distinct))
            else:
                for_each_chunk(distinct, pairs or (kernel if operator.compiled else engine), bar)
                if operator.dense:
                    rows[layer] = rows[reps]
            if pairs:
                pairs.done(layer)
    return Solved(band, offset, data, time.perf_counter() - start)


def _store_terminal(data: np.ndarray, offset: np.ndarray, band: np.ndarray, terminal: np.ndarray) -> None:
    """A banded table's full cards: each state's band of `terminal` (lanes 1 ..) at its offset."""
    lane = np.arange(int(band.max(initial=0)))
    inside = lane < band[:, None]
    data[(offset[:, None] + lane)[inside]] = np.broadcast_to(terminal[:len(lane)], inside.shape)[inside]


class _Pairs:
    """The compiled path of a lexicographic operator (`policy_table.pair_layer`) on `rows`' two
    lanes: the kernel reads and writes two contiguous arrays, which the policy's data
    (`PolicyTables`: primary, tie-break values, the operator's affine combine) point at."""

    def __init__(self, space: StateSpace, operator: Operator, rows: np.ndarray):
        if operator.affine is None or not operator.dense or rows.shape[1] != 2:
            raise ValueError("operator: a compiled lexicographic operator needs two dense lanes and its "
                             "affine (weight, shift) of the points; else compiled=False (the turn engine)")
        self.s, self.t = tables(space.rules)
        self.rows, self.first, self.second = rows, np.zeros(space.size), np.zeros(space.size)
        weight, shift = operator.affine(np.arange(span(self.s, self.t)))
        dummy, none = np.zeros(1), np.zeros(1, np.int64)
        self.pt = PolicyTables(self.second, dummy, none, none, self.first, np.asarray(weight, np.float64),
                               np.asarray(shift, np.float64), np.array([1.0, TIE]), np.zeros(1, np.int64),
                               *score_classes(self.t.score))
        self.most = n_slots_most(self.pt, self.t)

    def __call__(self, states):
        with vectorizing():
            pair_layer(states, self.first, self.second, self.s, self.t, self.pt, self.most)
        self.rows[states, 0], self.rows[states, 1] = self.first[states], self.second[states]

    def done(self, layer):
        """A layer's rows are final (its terminal, or copied from representatives): the kernel's too."""
        self.first[layer], self.second[layer] = self.rows[layer, 0], self.rows[layer, 1]


def reference_table(space: StateSpace, operator: Operator, within: int = 0) -> np.ndarray:
    """Every state's lanes by the turn engine (numpy, float64) over the same layers: (size,
    lanes...) with the full card's `lanes.terminal`; the compiled path's check on small games."""
    values = terminal_values(operator.lanes, space)
    for layer, distinct, reps in space.backward(space.n_boxes - 1, within):
        for_each_chunk(distinct, lambda part: values.__setitem__(part, turn_values(space, values, part,
                                                                                    operator.lanes)))
        values[layer] = values[reps]
    return values
