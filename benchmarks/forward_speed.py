"""The whole-game max-mean pass (engine/compiled/forward.push_layers) against an earlier version
of it, side by side in one process: interleaved runs, medians, the ratio new/old, the load average,
and a check that both give the same rows, totals and state probabilities bit for bit.

Run by hand: `PYTHONPATH=. python benchmarks/forward_speed.py [--rules yatzy] [--repeats 5]
[--old 8adc10a]`. The old pass is forward.py as it stood at commit --old (read with `git show`
into a module of its own: the package keeps one copy of its kernels). The values come from the
cache (solved first if absent, not timed); the first run of each pass compiles its kernels (not
counted). Issue 46's goal: yatzy in <= 5 s on 2 cores, 7.3-7.7 s before on a quiet machine.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from yatzy_core.engine.cache import get_solution
from yatzy_core.engine.compiled import forward as new_forward
from yatzy_core.objectives.distribution import kind_box

ROOT = Path(__file__).resolve().parents[1]
PATH = "yatzy_core/engine/compiled/forward.py"


def old_forward(commit: str):
    """forward.py at `commit`, imported as yatzy_core.engine.compiled._forward_old."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{PATH}"], check=True,
                          capture_output=True, text=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="forward-old-"))
    (folder / "forward_old.py").write_text(text)
    name = "yatzy_core.engine.compiled._forward_old"
    spec = importlib.util.spec_from_file_location(name, folder / "forward_old.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def timed(module, solution, with_points=True):
    """(seconds, what push_layers returns) of one pass from the empty card."""
    space = solution.space
    rows = module.start_rows([space.index(0, 0, 0)], [0], [1.0])
    start = time.perf_counter()
    out = module.push_layers(solution, rows, kind_box(solution.rules), with_points)
    return time.perf_counter() - start, out


def same(a, b) -> bool:
    """Both passes' final rows, totals and state probabilities equal bit for bit."""
    rows = all(np.array_equal(getattr(a[0], f), getattr(b[0], f)) for f in ("states", "lo", "start", "data"))
    return (rows and np.array_equal(a[1].box_sum, b[1].box_sum) and np.array_equal(a[1].sums, b[1].sums)
            and np.array_equal(a[2], b[2]))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--old", default="8adc10a", help="the commit whose forward.py is the baseline")
    args = parser.parse_args(argv)
    solution = get_solution(args.rules, progress=False)
    old = old_forward(args.old)
    passes = {"old": old, "new": new_forward}
    for with_points in (True, False):      # compiles both, checks both modes
        a, b = (timed(m, solution, with_points)[1] for m in passes.values())
        print(f"{args.rules}, {'distribution' if with_points else 'expectations only'}: "
              f"{'identical' if same(a, b) else 'DIFFERENT'}; rows of two layers {a[1].peak_rows_mb:.0f} -> "
              f"{b[1].peak_rows_mb:.0f} MiB, a layer's moves {b[1].peak_moves_mb:.0f} MiB")
    seconds = {k: [] for k in passes}
    load = os.getloadavg()[0]
    for _ in range(args.repeats):
        for key, module in passes.items():
            seconds[key].append(timed(module, solution)[0])
    load = (load + os.getloadavg()[0]) / 2
    o, n = np.median(seconds["old"]), np.median(seconds["new"])
    for key, s in seconds.items():
        print(f"  {key}: " + " ".join(f"{x:.2f}" for x in s) + f" s, median {np.median(s):.2f} s")
    print(f"new/old {n / o:.3f} (medians of {args.repeats}, interleaved; load average about {load:.1f}"
          f" on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
