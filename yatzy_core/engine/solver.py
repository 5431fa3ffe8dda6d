"""Backward induction over turn states: the optimal expected score of a rule set.

Layers are processed from the full card (worth 0 more points) back to the empty one; within a
layer every reachable state depends only on later layers, so a layer is solved as one block.
The one inner loop is `kernel.solve_layer` (compiled, one call per layer); `turn.turn_values` is the same computation
in plain numpy, kept as the readable reference and selectable with backend="numpy".
"""
from __future__ import annotations

import os
import time
import warnings
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np

from ..game.checks import true_or_false
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace, memory_estimate
from .chunked import for_each_chunk
from .progress import bar, progress_on

__all__ = ["Solution", "solve", "compile_kernel", "SolveWarning", "available_memory"]

LOUD_BYTES = 1 << 30   # a solve needing more than this says so first (its states and memory)
PROC_CGROUP = "/proc/self/cgroup"      # this process's cgroups, one "id:controllers:/path" a line
CGROUP_ROOT = "/sys/fs/cgroup"         # v2's hierarchy; v1's memory controller in its "memory"


class SolveWarning(UserWarning):
    """A solve large enough to take minutes and gigabytes (told before it starts)."""

COMPILE_SECONDS = 30    # the solver's kernel compiled on a quiet 2-core machine (README, "Times and sizes")
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
    def start_value(self) -> float:
        """The value of a whole game, from the empty card (`solved.SolvedTable`): `expected_score`."""
        return self.expected_score

    @property
    def std(self) -> float:
        """Exact standard deviation of the final score under optimal play (no simulation); the
        first call on a values-only solution runs the moments pass (about a values solve)."""
        if self.second is None:
            # the pass recomputes the same values into the same array (no second copy)
            self.second = _backward(self.rules, self.space, self.values, True, False)[1]
        start = self.space.index(0, 0, 0)
        return float(np.sqrt(float(self.second[start]) - float(self.values[start]) ** 2))

    def value(self, mask: int, upper: int = 0, flag: int = 0) -> float:
        """Expected points still to come from the start of a turn in this state; ValueError for
        a state no game reaches (its table entry is a meaningless 0)."""
        rules, space = self.rules, self.space
        for name, v in (("mask", mask), ("upper", upper), ("flag", flag)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{name} must be a whole number, got {v!r}")
        most = sum(b.face * rules.n_dice for i, b in enumerate(rules.boxes) if b.is_upper and mask >> i & 1)
        if not (0 <= mask < 1 << rules.n_boxes and 0 <= upper <= most and 0 <= flag < space.n_flags
                and space.reachable[space.index(mask, min(upper, rules.upper_cap), flag)]):
            raise ValueError(f"no game of {rules.name!r} reaches mask={mask}, upper={upper}, flag={flag}")
        return float(self.values[space.index(mask, min(upper, rules.upper_cap), flag)])


def solve(rules: str | Rules, progress=True, backend: str = "numba",
          moments: bool = False, dtype=np.float64) -> Solution:
    """Solve a rule set by backward induction over its distinct reachable turn states.

    Values only by default. With moments (numba backend only) the second moment of the points to
    come is carried along the optimal policy too, which gives `Solution.std`. progress: True
    shows a tqdm bar, or pass your own (a widget's; see `_bar`). dtype=np.float32
    stores the tables in half the memory (for six dice; the kernel still computes in float64).
    """
    rules = get_rules(rules)
    if rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} save rolls: their tables hold a saved count too; "
                         f"solve them with engine.saved.solve_saved")
    if backend not in ("numba", "numpy"):
        raise ValueError(f"unknown backend {backend!r}; choose 'numba' or 'numpy'")
    if true_or_false("moments", moments) and backend != "numba":
        raise ValueError("moments=True needs backend='numba'")
    if _dtype(dtype) not in (np.float64, np.float32):
        raise ValueError(f"dtype must be float64 or float32, got {dtype!r}")
    space = StateSpace(rules)
    check_memory(space, moments, np.dtype(dtype).itemsize if backend == "numba" else 8)
    start = time.perf_counter()
    if backend == "numpy":
        values, second = _backward_numpy(space, progress), None
    else:
        values, second = _backward(rules, space, np.zeros(space.size, dtype), moments, progress)
    return Solution(rules, values, time.perf_counter() - start, second)


def _dtype(dtype) -> np.dtype | None:
    """numpy's dtype of `dtype`, or None for what names none ('x', an int)."""
    try:
        return np.dtype(dtype)
    except TypeError:
        return None


def available_memory() -> int | None:
    """Bytes of memory a new allocation can get now: the smallest of what the machine has free
    (MemAvailable of /proc/meminfo, else its physical memory), what this process's limits
    (`ulimit -v`, `ulimit -d`) leave and what its cgroups' limits leave, so that a solve refused
    here is refused in one line instead of ending in a MemoryError; None when none is known."""
    known = [n for n in (_machine_free(), _rlimit_room(), _cgroup_room()) if n is not None]
    return min(known) if known else None


def _machine_free() -> int | None:
    """MemAvailable (Linux), else the machine's physical memory, else None."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _rlimit_room() -> int | None:
    """What RLIMIT_AS (`ulimit -v`) and RLIMIT_DATA (`ulimit -d`) leave beyond the address space
    and data this process holds now (VmSize, VmData of /proc/self/status); None without limits."""
    try:
        import resource
        limits = {"VmSize": resource.getrlimit(resource.RLIMIT_AS)[0],
                  "VmData": resource.getrlimit(resource.RLIMIT_DATA)[0]}
    except (ImportError, AttributeError, ValueError, OSError):
        return None
    limits = {key: n for key, n in limits.items() if n != resource.RLIM_INFINITY}
    if not limits:
        return None
    used = dict.fromkeys(limits, 0)
    try:
        with open("/proc/self/status") as f:
            for line in f:
                key = line.split(":")[0]
                if key in used:
                    used[key] = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return max(0, min(limits[key] - used[key] for key in limits))


def _cgroup_room() -> int | None:
    """The least room any memory cgroup of this process (and their parents) leaves: v2's
    memory.max - memory.current, v1's memory.limit_in_bytes - memory.usage_in_bytes, each less
    the page cache the kernel can take back (memory.stat's inactive_file, as Docker and the
    kubelet count it); None without a limit (or outside Linux)."""
    try:
        with open(PROC_CGROUP) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    rooms = []
    for line in lines:
        _, controllers, where = (line.split(":", 2) + ["", ""])[:3]
        if controllers == "":
            base, files = CGROUP_ROOT, ("memory.max", "memory.current", "inactive_file")
        elif "memory" in controllers.split(","):
            base = os.path.join(CGROUP_ROOT, "memory")
            files = ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")
        else:
            continue
        parts = [p for p in where.split("/") if p]
        for depth in range(len(parts), -1, -1):    # the group, its parents, the mount's root
            rooms.append(_cgroup_file_room(os.path.join(base, *parts[:depth]), *files))
    rooms = [n for n in rooms if n is not None]
    return min(rooms) if rooms else None


def _cgroup_file_room(folder: str, limit_file: str, usage_file: str, cache_key: str) -> int | None:
    """limit - (usage - reclaimable page cache) of one cgroup folder; None when it has no limit
    ("max", or v1's huge number) or cannot be read. Usage counts the files read lately too: a
    container that read large files would otherwise refuse a solve that fits."""
    try:
        with open(os.path.join(folder, limit_file)) as f:
            limit = f.read().strip()
        if limit == "max" or int(limit) >= 1 << 60:
            return None
        with open(os.path.join(folder, usage_file)) as f:
            usage = int(f.read().strip())
    except (OSError, ValueError):
        return None
    return max(0, int(limit) - max(0, usage - _stat(os.path.join(folder, "memory.stat"), cache_key)))


def _stat(path: str, key: str) -> int:
    """One counter of a cgroup's memory.stat (0 when missing or unreadable)."""
    try:
        with open(path) as f:
            for line in f:
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def check_memory(space: StateSpace, moments: bool, itemsize: int) -> None:
    """Refuse a solve that cannot fit in memory (it would swap or be killed after minutes),
    and announce one above LOUD_BYTES: a tiny rule file can ask for gigabytes."""
    need, free = memory_estimate(space, moments, itemsize), available_memory()
    what = f"rules {space.rules.name!r}: {space.size:,} states need about {need / 1e9:.1f} GB"
    if free is not None and need > free:
        raise ValueError(f"{what} of memory, but only {free / 1e9:.1f} GB is available; use "
                         "fewer boxes or a lower upper_bonus_threshold")
    if need > LOUD_BYTES:
        warnings.warn(f"solving {what} of memory", SolveWarning, stacklevel=3)


def _layers(space: StateSpace, progress: bool, what: str, block: int = 1 << 20):
    """Blocks of each layer's reachable states, from the full card back, with a progress bar:
    the states, the distinct ones among them (which the solver solves; each stands for itself)
    and each state's representative."""
    total = int(space.reachable.sum() - space.reachable.reshape(1 << space.n_boxes, -1)[-1].sum())
    with _bar(progress, total, f"{what} {space.rules.name}") as bar:
        for states, distinct, representatives in space.backward(space.n_boxes - 1, block=block):
            yield states, distinct, representatives
            bar.update(len(states))


def _bar(progress, total: int, desc: str):
    """A tqdm bar (shown when progress is true), or the caller's own bar, anything with tqdm's
    reset(total) and update(n), reset to this solve: a widget can show it, and its update may
    raise to stop the solve between blocks."""
    if hasattr(progress, "update"):
        progress.reset(total=total)
        return nullcontext(progress)
    return bar(total, desc, progress)


def _backward(rules, space, values, moments, progress):
    """Values (and second moments) of every reachable state, by the compiled kernel (in chunks,
    so that Ctrl-C stops it within about `chunked.CHUNK_SECONDS`)."""
    from .compiled.first_use import announce_compiling
    from .compiled.kernel import solve_layer
    from .compiled.layout import lane_groups, tables

    settings, t = tables(rules)
    if progress_on(progress):
        announce_compiling("kernel._solve_groups", "the solver's kernel", COMPILE_SECONDS)
    second = np.zeros(space.size, values.dtype) if moments else None
    for layer, distinct, representatives in _layers(space, progress, "moments" if moments else "solving"):
        # lane groups are independent: solved a slice at a time, bit for bit as in one call
        for_each_chunk(lane_groups(space, distinct), lambda part: solve_layer(settings, t, part, values, second))
        values[layer] = values[representatives]
        if moments:
            second[layer] = second[representatives]
    return values, second


def _backward_numpy(space, progress):
    """The same values by `turn.turn_values`, the readable reference, in blocks of states."""
    from .turn import turn_values

    values = np.zeros(space.size)
    for layer, distinct, representatives in _layers(space, progress, "solving"):
        for i in range(0, len(distinct), NUMPY_BLOCK):
            block = distinct[i:i + NUMPY_BLOCK]
            values[block] = turn_values(space, values, block)
        values[layer] = values[representatives]
    return values


def compile_kernel() -> float:
    """Compile the kernel, or load it from numba's disk cache, by solving a two-box game (values
    and moments); returns the seconds it took. `python -m yatzy_core.warmup` runs it, so that an
    install can pay for the compilation once, ahead of the first real solve."""
    tiny = get_rules("yatzy")
    tiny = tiny.with_(name="compile", boxes=tiny.boxes[:2])
    start = time.perf_counter()
    solve(tiny, progress=False, moments=True)
    return time.perf_counter() - start

