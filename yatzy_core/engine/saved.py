"""Games with saved rolls (Maxi Yatzy as played): the value of every state for every saved count.

A turn that scores with j rerolls left saves them; a later turn may reroll rolls_per_turn - 1 +
saved times. The saved count is a third part of the state, beside the box set and the upper
total; after `used` turns at most (rolls_per_turn - 1) * used rolls can be saved. Each layer
(boxes used) is one array, row = rank of the box set among those of its size * U * F + upper * F
+ flag, column = saved count; one compiled pass a state gives all its columns
(`compiled.saved_kernel`). A solve that keeps only the first layers (keep=k: those with at most
k boxes used) holds two layers at a time: Maxi Yatzy's largest two are 5.3 GB in float64 (its
whole table 15 GB). float32 tables halve that but miss a 1e-6 bar on the expected score.

>>> from yatzy_core.game.rules import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> game = Rules("chance-twice", (Box("a", total), Box("b", total)), upper_bonus=0, n_dice=1,
...              rolls_per_turn=2, saved_rolls=True)
>>> solved = solve_saved(game, progress=False)
>>> round(solved.expected_score, 6), round(solved.value(0b01, saved=1), 6)   # 1 saved: 3 rolls
(8.708333, 4.666667)
>>> round(solve_saved(game, progress=False, moments=True).std, 6)     # brute force: 2.210691
2.210691
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from math import comb

import numpy as np

from ..game.rules import Rules, get_rules
from ..game.states import OVERHEAD, StateSpace
from .layer_checkpoint import LayerCheckpoint
from .chunked import for_each_chunk
from .solver import LOUD_BYTES, SolveWarning, _bar, available_memory
from .turn import Turn, best_subkeeper, box_values, keeper_values, scored_boxes

__all__ = ["SavedSolution", "solve_saved", "most_saved", "saved_stages", "saved_turn", "saved_memory",
           "whole_saved_solution", "WHOLE_TABLE_BYTES", "SavedColumn"]

BLOCK = 1 << 18   # states a block: the copy to the represented states stays ~40 MB
MOMENTS_TIME = 9   # a solve with moments takes about this many times the values alone (measured:
                   # benchmarks/saved_std.py, the first 12 boxes of Maxi Yatzy, 24.8 s / 2.71 s CPU)


def most_saved(rules: Rules, used: int, before: int = 0) -> int:
    """The most rolls a game can have saved at the start of a turn with `used` boxes used (and
    `before` boxes used before the game of the open boxes began, see `solve_saved`).

    >>> from yatzy_core.game.rules import get_rules
    >>> most_saved(get_rules("maxi-yatzy"), 19)
    38
    """
    return (rules.rolls_per_turn - 1) * (used + before)


@dataclass
class SavedSolution:
    """Start-of-turn values of a saved-roll game: layers[used][row, saved] (None for a layer the
    solve let go, see `solve_saved`'s keep); with moments, `second` holds the second moments of
    the points to come the same way."""

    rules: Rules
    layers: list
    seconds: float = 0.0
    space: StateSpace = field(init=False, repr=False)
    rank: np.ndarray = field(init=False, repr=False)
    before: int = 0
    second: list | None = None

    def __post_init__(self):
        self.space = StateSpace(self.rules)
        self.rank = box_set_rank(self.rules.n_boxes)

    @property
    def expected_score(self) -> float:
        """Optimal expected final score from the empty card, no roll saved."""
        return float(self.layers[0][0, 0])

    @property
    def start_value(self) -> float:
        """The value of a whole game, from the empty card (`solved.SolvedTable`): `expected_score`."""
        return self.expected_score

    @property
    def std(self) -> float:
        """Standard deviation of the final score from the empty card under the advisor's
        choices; ValueError unless solved with moments=True."""
        if self.second is None:
            raise ValueError(f"the spread of {self.rules.name!r} was not computed: solve_saved(..., moments=True)")
        return float(np.sqrt(max(float(self.second[0][0, 0]) - self.expected_score ** 2, 0.0)))

    def value(self, mask: int, upper: int = 0, flag: int = 0, saved: int = 0) -> float:
        """Expected points still to come from the start of a turn in this state with `saved`
        rolls saved; ValueError for a state no game reaches or a layer not kept."""
        rules, space = self.rules, self.space
        used = bin(mask).count("1") if 0 <= mask < 1 << rules.n_boxes else -1
        capped = min(upper, rules.upper_cap)
        if not (used >= 0 and 0 <= upper and 0 <= flag < space.n_flags and space.reachable[space.index(mask, capped, flag)]
                and 0 <= saved <= most_saved(rules, used, self.before)):
            raise ValueError(f"no game of {rules.name!r} reaches mask={mask}, upper={upper}, "
                             f"flag={flag}, saved={saved}")
        if self.layers[used] is None:
            raise ValueError(f"the layer of {used} boxes used was not kept (solve with keep=None)")
        per_set = space.n_upper * space.n_flags
        return float(self.layers[used][self.rank[mask] * per_set + capped * space.n_flags + flag, saved])

    def flat(self, saved: int) -> "SavedColumn":
        """The start-of-turn value of every state (StateSpace index) with `saved` rolls saved,
        0 where a layer cannot hold that many (no game reads those), read from the layers."""
        return SavedColumn(self, saved)


class SavedColumn:
    """One saved count's start-of-turn values, indexed by StateSpace index like a flat array
    (what `turn.box_values` reads) but read from the layers when indexed, never built: one
    column of Maxi Yatzy is 0.7 GB in float64, and a turn may read 41 of them.

    >>> from yatzy_core.game.scoring import Box, total
    >>> game = Rules("chance-twice", (Box("a", total), Box("b", total)), upper_bonus=0, n_dice=1,
    ...              rolls_per_turn=2, saved_rolls=True)
    >>> solved = solve_saved(game, progress=False)
    >>> solved.flat(1)[np.array([solved.space.index(0b01, 0, 0)])].round(6).tolist()
    [4.666667]
    """

    def __init__(self, solution: SavedSolution, saved: int):
        self.solution, self.saved = solution, saved
        self.shape = (solution.space.size,)

    def __getitem__(self, index) -> np.ndarray:
        solution, space = self.solution, self.solution.space
        per_set = space.n_upper * space.n_flags
        mask, rest = np.divmod(np.asarray(index, dtype=np.int64), per_set)
        used = space.boxes_used[mask]
        out = np.zeros(mask.shape)
        for k in np.unique(used):
            layer = solution.layers[k]
            if layer is None:
                raise ValueError(f"the layer of {k} boxes used was not kept (solve with keep=None)")
            if self.saved < layer.shape[1]:
                at = used == k
                out[at] = layer[solution.rank[mask[at]] * per_set + rest[at], self.saved]
        return out


def box_set_rank(n_boxes: int) -> np.ndarray:
    """Each box set's place among the box sets of its size, in ascending order.

    >>> box_set_rank(3).tolist()     # 000; 001 010 100; 011 101 110; 111
    [0, 0, 1, 0, 2, 1, 2, 0]
    """
    masks = np.arange(1 << n_boxes)
    used = np.zeros(len(masks), dtype=np.int64)
    for b in range(n_boxes):
        used += (masks >> b) & 1
    rank = np.empty(len(masks), dtype=np.int64)
    for k in range(n_boxes + 1):
        same = np.flatnonzero(used == k)
        rank[same] = np.arange(len(same))
    return rank


def solve_saved(rules: str | Rules, progress=True, dtype=np.float64, keep: int | None = None,
                before: int = 0, moments: bool = False, checkpoint=None) -> SavedSolution:
    """Backward induction over layers for a game with saved rolls (the kernel computes in
    float64, dtype is what the tables store). keep=k keeps only the layers with at most k boxes
    used (the others are let go once the layer before them is solved). `before`: boxes used
    before this game began (the game of a position's open boxes), whose turns may have saved
    rolls too. moments=True also carries the second moment of the points to come along the
    advisor's choices (`compiled.saved_moments`), which gives `SavedSolution.std`: twice the
    memory, about nine times the time. checkpoint: a folder where each finished layer is written
    (`layer_checkpoint.LayerCheckpoint`); a later solve of the same game resumes from the last
    one written, when the solve keeps no layer after it (keep=k with k at most its boxes used;
    keep=None holds every layer in memory, so a checkpoint with it is a ValueError)."""
    rules = get_rules(rules)   # a public entry (chapter 10): a name is resolved here
    if not rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} do not save rolls; use solver.solve")
    _check_memory(rules, np.dtype(dtype).itemsize, keep, before, moments)
    space, n = StateSpace(rules), rules.n_boxes
    per_set = space.n_upper * space.n_flags
    start = time.perf_counter()
    layers: list = [None] * (n + 1)
    second: list | None = [None] * (n + 1) if moments else None
    layers[n] = np.zeros((per_set, most_saved(rules, n, before) + 1), dtype)
    if moments:
        second[n] = np.zeros_like(layers[n])
    total = int(space.reachable.sum() - space.reachable.reshape(1 << n, -1)[-1].sum())
    what = "with saved rolls" + (" and second moments" if moments else "")

    def shape_of(used: int) -> tuple:
        return comb(n, used) * per_set, most_saved(rules, used, before) + 1

    saver, last = _resume(checkpoint, rules, dtype, before, moments, keep, shape_of, layers, second)
    try:
        with _bar(progress, total, f"solving {rules.name} {what}") as bar:
            bar.update(int(space.reachable.reshape(1 << n, -1)[space.boxes_used >= last].sum())
                       - int(space.reachable.reshape(1 << n, -1)[-1].sum()))
            for used in range(last - 1, -1, -1):
                layers[used] = np.zeros(shape_of(used), dtype)
                if moments:
                    second[used] = np.zeros(shape_of(used), dtype)
                _solve_layer(rules, space, used, layers, second, bar)
                if saver is not None:
                    saver.save(used, [layers[used]] + ([second[used]] if moments else []))
                if keep is not None and used + 1 > keep:
                    layers[used + 1] = None
                    if moments:
                        second[used + 1] = None
    finally:
        if saver is not None:
            saver.release()
    solution = SavedSolution(rules, layers, time.perf_counter() - start)
    solution.before, solution.second = before, second
    return solution


def _resume(checkpoint, rules, dtype, before, moments, keep, shape_of, layers, second):
    """(the checkpoint folder's keeper or None, the layer the solve goes on from): a checkpoint's
    last layer replaces the full card's zeros in `layers` (and `second`) when this solve keeps no
    layer after it; one it cannot use is left as it is (warned), neither read nor overwritten."""
    n = rules.n_boxes
    if checkpoint is None:
        return None, n
    if keep is None:
        raise ValueError("argument checkpoint: needs keep=k (a solve keeping every layer holds them all "
                         "in memory, and cannot resume from one)")
    saver = LayerCheckpoint(checkpoint, rules, dtype, before, moments)
    found = saver.latest(lambda used: [shape_of(used)] * (2 if moments else 1))
    if found is None:
        return saver, n
    if found[0] < keep:
        warnings.warn(f"checkpoint {checkpoint}: its layer {found[0]} cannot give the layers up to {keep} "
                      "this solve keeps; solving afresh without writing over it", SolveWarning, stacklevel=3)
        saver.release()
        return None, n
    used = found[0]
    layers[n], layers[used] = None, found[1][0].astype(dtype, copy=False)
    if moments:
        second[n], second[used] = None, found[1][1].astype(dtype, copy=False)
    return saver, used


def _solve_layer(rules, space, used, layers, second, bar) -> None:
    """layers[used] (and second[used], when given) from the layer after it, block by block:
    the distinct states are solved, the others copied from the states they stand for."""
    from .compiled.layout import lane_groups, tables
    from .compiled.saved_kernel import solve_saved_layer
    from .compiled.saved_moments import solve_saved_moments_layer

    settings, t = tables(rules)
    rank, per_set = box_set_rank(rules.n_boxes), space.n_upper * space.n_flags
    out = layers[used]
    for states in space.layer_blocks(used, BLOCK):
        representatives = space.representatives(states)
        groups = lane_groups(space, states[representatives == states])
        if second is None:   # a chunk at a time: Ctrl-C acts between chunks, the values are the same
            for_each_chunk(groups, lambda part: solve_saved_layer(settings, t, part, rank, layers[used + 1], out))
        else:
            for_each_chunk(groups, lambda part: solve_saved_moments_layer(
                settings, t, part, rank, layers[used + 1], second[used + 1], out, second[used]))
        rows = rank[states // per_set] * per_set + states % per_set
        source = rank[representatives // per_set] * per_set + representatives % per_set
        out[rows] = out[source]
        if second is not None:
            second[used][rows] = second[used][source]
        bar.update(len(states))


WHOLE_TABLE_BYTES = 1_500_000_000   # a whole saved-roll table solved on demand (coach, player)
_whole: dict = {}


def whole_saved_solution(rules: Rules, solution: SavedSolution | None = None) -> SavedSolution:
    """Every layer of a saved-roll game, for play from the empty card: `solution` when given
    (checked), else solved once per process when it needs at most WHOLE_TABLE_BYTES; a larger game
    (Maxi Yatzy: 16.2 GB at the peak of its solve in float64, 8.7 in float32) is a ValueError saying so, never a
    silent solve."""
    if solution is not None:
        if not isinstance(solution, SavedSolution) or solution.rules != rules or solution.before:
            raise ValueError(f"solution must be solve_saved({rules.name!r}) of the whole game")
        if any(layer is None for layer in solution.layers):
            raise ValueError("solution must keep every layer: solve_saved(..., keep=None)")
        return solution
    if rules not in _whole:
        need = saved_memory(rules)
        if need > WHOLE_TABLE_BYTES:
            raise ValueError(f"rules {rules.name!r} with saved rolls are played from their whole table: "
                             f"about {need / 1e9:.1f} GB in float64 ({saved_memory(rules, 4) / 1e9:.1f} GB "
                             f"in float32), more than the {WHOLE_TABLE_BYTES / 1e9:.1f} GB solved on demand; "
                             "give solution=solve_saved(rules, dtype=np.float32)")
        _whole[rules] = solve_saved(rules, progress=False)
    return _whole[rules]


def saved_memory(rules: Rules, itemsize: int = 8, keep: int | None = None, before: int = 0,
                 moments: bool = False) -> int:
    """Bytes a saved-roll solve needs at its peak, about: the layers held at once (all kept ones
    plus the two being solved, twice over with moments) and OVERHEAD bytes a turn state for the
    masks and blocks.

    >>> from yatzy_core.game.rules import get_rules
    >>> round(saved_memory(get_rules("maxi-yatzy"), keep=2) / 1e9, 2)     # layers 10 and 11
    6.51
    >>> round(saved_memory(get_rules("maxi-yatzy"), keep=0, moments=True) / 1e9, 2)
    11.78
    """
    space, n = StateSpace(rules), rules.n_boxes
    per_set = space.n_upper * space.n_flags
    tables = 2 if moments else 1             # the values, and the second moments beside them
    size = [tables * comb(n, k) * per_set * (most_saved(rules, k, before) + 1) * itemsize
            for k in range(n + 1)]
    kept = sum(size) if keep is None else sum(size[:keep + 1])
    pair = max(size[k] + size[k + 1] for k in range(n)) if keep is not None else 0
    return kept + pair + space.size * OVERHEAD


def _check_memory(rules, itemsize, keep, before, moments=False) -> None:
    """Refuse a solve that cannot fit; announce one above LOUD_BYTES (as `solver.check_memory`)."""
    need, free = saved_memory(rules, itemsize, keep, before, moments), available_memory()
    what = (f"rules {rules.name!r} with saved rolls{' and second moments' if moments else ''} "
            f"need about {need / 1e9:.1f} GB")
    if free is not None and need > free:
        raise ValueError(f"{what} of memory, but only {free / 1e9:.1f} GB is available")
    if need > LOUD_BYTES:
        slower = f", and about {MOMENTS_TIME}x the time of the values alone" if moments else ""
        warnings.warn(f"solving {what} of memory{slower}", SolveWarning, stacklevel=3)


def saved_stages(solution: SavedSolution, state: int, rolls_left: int):
    """The stages of a turn from `state` with `rolls_left` rerolls (saved ones included), worked
    backwards in numpy: finals[j] (n_boxes, n_rolls, 1) is scoring each box with j rerolls left
    (saving j), keepers[j - 1] the keeper values with j - 1 rerolls left after them, rolls[j] a
    roll's value at stage j: the better of scoring now and the best keeper."""
    space = solution.space
    states = np.array([state])
    scored = scored_boxes(space, states)          # the same boxes at every stage: scored once
    finals = [box_values(space, solution.flat(0), states, scored=scored)]
    rolls, keepers = [finals[0].max(axis=0)], []
    for j in range(1, rolls_left + 1):
        finals.append(box_values(space, solution.flat(j), states, scored=scored))
        keepers.append(keeper_values(space, rolls[-1]))
        rolls.append(np.maximum(finals[-1].max(axis=0), best_subkeeper(space, keepers[-1])))
    return finals, keepers, rolls


def saved_turn(solution: SavedSolution, state: int, rolls_left: int) -> Turn:
    """The rest of a turn as a `turn.Turn`: `final` is scoring now (saving rolls_left),
    keepers[j - 1] the keeper values with j - 1 rerolls left after them (as `turn.evaluate`)."""
    finals, keepers, rolls = saved_stages(solution, state, rolls_left)
    return Turn(finals[-1], rolls, keepers, keeper_values(solution.space, rolls[-1])[0], None, None)
