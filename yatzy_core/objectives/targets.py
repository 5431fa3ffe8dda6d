"""Playing to reach a target: V(s, n), the best probability of gaining at least n more points.

The mean needs no memory of the points so far: a point is worth a point whenever it comes. A
target does: with 187 points and 260 to reach, the state must say "73 still needed". So the
state is augmented with n, and one backward pass computes every n = 0 .. n_max at once:

    V(full card, n) = [n <= 0]        V(s, n) = E_turn max_choice V(next, n - points now)

n <= 0 is certain (V = 1) and n above the most a state can still gain is impossible (V = 0):
only the band 1 .. min(n_max, most) of each state is stored and computed (`bands`). The
choices are per n; the turn engine makes them from these values (`turn.TargetLanes`).

Exponential utility needs no augmentation: `risk.py`.

>>> t = solve_targets("yahtzee-no-bonus", 10, within=(1 << 13) - 2)   # only ones open
>>> [round(float(p), 4) for p in t.vector(t.space.index((1 << 13) - 2, 0))[:4]]
[1.0, 0.9351, 0.6988, 0.3548]
>>> round(1 - (5 / 6) ** 15, 4)          # at least one 1 among 15 dice thrown
0.9351
"""
from __future__ import annotations

import contextlib
import math
import time
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ..game.checks import real_number, whole_number
from ..engine.cache import (CacheError, CacheWarning, cache_path, cacheable, cached, layout_digest, read_trusted,
                            write_trusted)
from ..engine.compiled.layout import Settings, Tables, vectorizing, tables
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from ..engine.compiled.target_kernel import solve_states
from ..engine.chunked import for_each_chunk
from ..engine.compiled.first_use import announce_compiling
from ..engine.progress import shown

__all__ = ["TARGET_WIDTH", "Targets", "bands", "most_gain", "max_total", "default_cap", "table_cap",
           "solve_targets", "target_table", "cached_caps"]

FORMAT = 2
TARGET_WIDTH = 500   # a speed choice: the widest default table (yahtzee's 1575 points are far past any goal
                     # played for; a goal above is answered from a table to the rules' most, or at once)


def most_gain(space: StateSpace, states) -> np.ndarray:
    """An upper bound on the points still to come from each state (exact where boxes' maxima
    can all be reached): open boxes' maxima, the upper bonus if still reachable, and a Yahtzee
    bonus per other open box while a Yahtzee can still earn one."""
    rules = space.rules
    mask, upper, flag = space.decode(np.asarray(states, dtype=np.int64))
    open_ = (mask[:, None] >> np.arange(rules.n_boxes)) & 1 == 0
    most = (open_ * rules.box_most).sum(axis=1)
    if rules.tracks_upper:
        reach = (upper < rules.upper_bonus_threshold) & (upper + space.upper_room[mask] >= rules.upper_bonus_threshold)
        most += np.where(reach, rules.upper_bonus, 0)
    if rules.tracks_yahtzee_bonus:
        yi = rules.yahtzee_index
        alive = (flag == 1) | open_[:, yi]
        most += np.where(alive, rules.yahtzee_bonus * (open_.sum(axis=1) - open_[:, yi]), 0)
    return most


@lru_cache(maxsize=None)
def max_total(rules: Rules) -> int:
    """An upper bound on any game's final total (`most_gain` of the empty card): no goal
    above it can be reached, and exp(theta * points) is bounded by it."""
    space = StateSpace(rules)
    return int(most_gain(space, [space.index(0, 0, 0)])[0])


def default_cap(rules: Rules) -> int:
    """The n_max a table is solved to unless asked otherwise: every reachable total up to
    TARGET_WIDTH (from the rules, never their name or a file's).

    >>> [default_cap(get_rules(n)) for n in ("yahtzee-no-bonus", "yahtzee", "yatzy")]
    [375, 500, 374]
    """
    return min(max_total(rules), TARGET_WIDTH)


def bands(space: StateSpace, n_max: int, states) -> np.ndarray:
    """How many n (1 .. band) each state needs computed: V(s, n) = 0 above the most it can gain."""
    return np.minimum(most_gain(space, states), n_max)


def pad_points(s: Settings, t: Tables) -> int:
    """Most points one box gives outside the pre-shifted upper rows (lower box, joker, bonus)."""
    return int(max(t.score.max(), t.joker.max()) + s.yahtzee_bonus)


@dataclass
class Targets:
    """V(s, n) for every reachable state s and n = 0 .. n_max, stored as bands."""

    rules: Rules
    n_max: int
    band: np.ndarray        # (space.size,) n computed per state (0: unreached, or nothing to gain)
    offset: np.ndarray      # (space.size,) where V(s, 1) is in data
    data: np.ndarray
    seconds: float = 0.0
    space: StateSpace = field(init=False, repr=False)

    def __post_init__(self):
        self.space = StateSpace(self.rules)

    @property
    def shape(self) -> tuple[int, int]:
        """As a (states, n_max + 1) array, so the turn engine can index it like values."""
        return (self.space.size, self.n_max + 1)

    def __getitem__(self, states) -> np.ndarray:
        """Dense V(s, 0 .. n_max) of an array of states: shape states.shape + (n_max + 1,)."""
        states = np.asarray(states, dtype=np.int64)
        flat = states.reshape(-1)
        n = np.arange(1, self.n_max + 1)
        hi = self.band[flat][:, None]
        at = np.where(n <= hi, self.offset[flat][:, None] + n - 1, 0)
        out = np.where(n <= hi, self.data[at], 0.0).astype(np.float64)
        return np.concatenate([np.ones((len(flat), 1)), out], axis=1).reshape(states.shape + (-1,))

    def vector(self, state: int) -> np.ndarray:
        """V(state, n) for n = 0 .. n_max."""
        return self[np.array([state])][0]

    def value(self, mask: int, upper: int = 0, flag: int = 0) -> np.ndarray:
        """V(s, n) for n = 0 .. n_max from the start of a turn in this state (`solved.SolvedTable`)."""
        return self.vector(self.space.index(mask, min(upper, self.rules.upper_cap), flag))

    @property
    def start_value(self) -> np.ndarray:
        """V(empty card, n) for n = 0 .. n_max: the best chance of each total in a whole game."""
        return self.value(0)

    def p_at_least(self, target: float, state: int | None = None) -> float:
        """Best P(points still to come >= target) from `state` (default: the empty card); 0
        for a target above the most the state can still gain, whatever n_max. The points are
        whole: at least 5.5 is at least 6."""
        target = math.ceil(real_number("target", target))
        state = self.space.index(0, 0, 0) if state is None else state
        if not 0 <= target <= self.n_max:
            if target > self.n_max and target > most_gain(self.space, [state])[0]:
                return 0.0
            raise ValueError(f"target must be 0..{self.n_max}, got {target}")
        return float(self.vector(state)[target])

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)


def _layout(space: StateSpace, n_max: int, within: int):
    """The layers, each state's band and where it starts in the data (distinct states own
    storage; the others are pointed at their representative's once it is solved)."""
    band = np.zeros(space.size, dtype=np.int64)
    offset = np.zeros(space.size, dtype=np.int64)
    layers = list(space.backward(space.n_boxes, within))   # the full card too: its bands
    used = 0
    for _, distinct, _ in layers:
        band[distinct] = bands(space, n_max, distinct)
        offset[distinct] = used + np.cumsum(band[distinct]) - band[distinct]
        used += int(band[distinct].sum())
    return layers, band, offset, used


def run_kernel(s: Settings, t: Tables, states, data, offset, band, pad, risk, weight, bar=None):
    """One layer's `states` by the compiled kernel, a chunk at a time (`for_each_chunk`: Ctrl-C
    stops it between chunks; states are independent, so the values are those of one call)."""
    if bar is not None and not bar.disable:
        announce_compiling("target_kernel.solve_states", "the target tables' kernel", 40)
    with vectorizing():
        for_each_chunk(states, lambda part: solve_states(part, data, offset, band, s, t, pad, risk, weight), bar)


def solve_targets(rules: str | Rules, n_max: int | None = None, within: int = 0,
                  dtype=np.float64, progress: bool = False) -> Targets:
    """V(s, n) for n = 0 .. n_max by one backward pass (compiled, vectorised over n).

    `within`: solve only the states whose used boxes include these (the subgame of a late
    position). dtype float32 halves the table and the time, to about 1e-6. progress: a tqdm
    bar of the states solved (a whole table takes a minute or more)."""
    rules = get_rules(rules)   # a public entry (chapter 8): a name is resolved here
    n_max = default_cap(rules) if n_max is None else whole_number("n_max", n_max)
    within = within_mask(within, rules)
    space, (s, t) = StateSpace(rules), tables(rules)
    start = time.perf_counter()
    layers, band, offset, used = _layout(space, n_max, within)
    data = np.zeros(max(used, 1), dtype=dtype)
    with tqdm(total=sum(len(d) for _, d, _ in layers), desc=f"target table {rules.name}", unit="state",
              disable=not shown(progress), leave=False) as bar:
        for layer, distinct, reps in layers:
            run_kernel(s, t, distinct, data, offset, band, pad_points(s, t), False, np.ones((1, 1)), bar)
            band[layer], offset[layer] = band[reps], offset[reps]
    return Targets(rules, int(n_max), band, offset, data, time.perf_counter() - start)


def within_mask(within, rules: Rules) -> int:
    """`within` as an int; ValueError naming it unless it is a mask of used boxes (bit b: box b)."""
    mask, full = whole_number("within", within), (1 << rules.n_boxes) - 1
    if mask > full:
        raise ValueError(f"within must be a mask of used boxes 0..{full} (bit b: box b), got {within!r}")
    return mask


def _save(targets: Targets, path) -> None:
    write_trusted(path, targets.rules, targets.data, FORMAT, seconds=targets.seconds,
                  n_max=targets.n_max, dtype=str(targets.data.dtype),
                  layout=layout_digest(targets.space))


def _load(path, rules: Rules, n_max: int, dtype) -> Targets:
    """A whole table read back; CacheError unless the file holds these rules (`read_trusted`:
    fingerprint, version, checksum, states), this n_max and float type, and one number per
    entry of the bands of this n_max (n_max comes from the rules, never from the file)."""
    space = StateSpace(rules)
    fields = read_trusted(path, rules, FORMAT, layout_digest(space))
    stored, wanted = (int(fields["n_max"]), str(fields["dtype"])), (n_max, np.dtype(dtype).name)
    if stored != wanted:
        raise CacheError(f"{path} holds targets up to {stored[0]} in {stored[1]}, not {n_max} in {wanted[1]}")
    layers, band, offset, used = _layout(space, n_max, 0)
    for layer, _, reps in layers:
        band[layer], offset[layer] = band[reps], offset[reps]
    if len(fields["numbers"]) != max(used, 1):
        raise CacheError(f"{path} is damaged (holds {len(fields['numbers'])} numbers, {used} expected)")
    return Targets(rules, n_max, band, offset, fields["numbers"].astype(wanted[1]), float(fields["seconds"]))


def table_cap(rules: Rules, n_max: int) -> int:
    """The n_max a whole table answering `n_max` is solved to: `default_cap`, or past it every
    reachable total, so that one table (two at most) serves every goal of a rule set."""
    default = default_cap(rules)
    return default if n_max <= default else max_total(rules)


def target_table(rules: str | Rules, n_max: int | None = None, use_cache: bool = True,
                 dtype=np.float32, progress: bool = False) -> Targets:
    """A whole table of a rule set that answers every target up to `n_max`: the one of its
    `table_cap` from the cache, else a larger cached one, else one solved to `table_cap` (and
    cached), never past `max_total`. A larger cached table that cannot be trusted is not rebuilt
    for a smaller goal."""
    rules = get_rules(rules)   # a public entry (chapter 8): a name is resolved here
    n_max = default_cap(rules) if n_max is None else whole_number("n_max", n_max)
    n_max = min(n_max, max_total(rules))
    if not use_cache or not cacheable(rules):
        return solve_targets(rules, n_max, dtype=dtype, progress=progress)
    cap = table_cap(rules, n_max)
    caps = cached_caps(rules, dtype)
    if cap not in caps:   # its own table is not cached: a larger one answers too (read, not solved)
        for larger in (c for c in caps if c > cap):
            try:
                return _read_table(_table_file(rules, larger, dtype), rules, larger, dtype)
            except Exception as err:   # damaged or foreign (as `cached` takes it): solve the smaller one
                warnings.warn(f"yatzy-core cache: a larger table is not used, solved to {cap} instead: {err}"[:300],
                              CacheWarning, stacklevel=2)
                break
    return cached(_table_file(rules, cap, dtype), lambda p: _read_table(p, rules, cap, dtype),
                  lambda: solve_targets(rules, cap, dtype=dtype, progress=progress), _save)


_LAST_READ: dict = {}   # the whole table read last (a widget asks again on every change)


def _read_table(path: Path, rules: Rules, cap: int, dtype) -> Targets:
    """`_load`, unless the same file (unchanged since) was read last for these rules."""
    stat = path.stat()   # a missing file: FileNotFoundError, as `cached` expects
    key = (str(path), stat.st_mtime_ns, stat.st_size, rules, cap, np.dtype(dtype).name)
    if _LAST_READ.get("key") != key:
        _LAST_READ.clear()
        _LAST_READ.update(table=_load(path, rules, cap, dtype), key=key)
    return _LAST_READ["table"]


def _table_file(rules: Rules, cap: int, dtype) -> Path:
    return cache_path(rules, f"targets-{cap}-{np.dtype(dtype).name}")


def cached_caps(rules: Rules, dtype=np.float32) -> list[int]:
    """The caps of these rules' whole tables (`default_cap`, `max_total`) whose files are in the
    cache, smallest first. The names are made from the rules' caps, never parsed: a file of any
    other cap is foreign and ignored. A file is only trusted when it is read (`target_table`)."""
    if not cacheable(rules):
        return []
    found = []
    for cap in sorted({default_cap(rules), max_total(rules)}):
        with contextlib.suppress(OSError):
            if _table_file(rules, cap, dtype).exists():
                found.append(cap)
    return found
