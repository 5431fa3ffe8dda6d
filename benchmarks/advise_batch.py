"""advise_batch against the per-call `advise` loop, in one process.

Run by hand: `.venv/bin/python benchmarks/advise_batch.py [--rules yahtzee] [--positions 100000]
[--baseline 2000] [--repeats 5]`.

N random positions (a reachable turn state short of a full card, drawn uniformly; random dice;
rerolls left 0..2 uniformly) are advised in one `advise_batch` call, median of R runs after one
untimed call (numba compiles, the table is read). The baseline advises the first M of the same
positions one `advise` call each (median of R passes of the per-position time), and the ratio is
per position. Both use the same solved table; the values are checked equal on the first 200. CPU time is
printed beside the wall time: on a shared machine the wall time counts other processes' use.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from yatzy_core import Position, advise, advise_batch, get_rules
from yatzy_core.engine.batch_advice import option_count, option_index, random_positions
from yatzy_core.engine.position import upper_totals
from yatzy_core.engine.solutions import solution_for
from yatzy_core.game.dice import dice_of


def position(rules, arrays, i) -> Position:
    """Position i of the arrays (a capped upper total becomes a total the used boxes can make)."""
    used = [b for j, b in enumerate(rules.box_names) if (int(arrays["used"][i]) >> j) & 1]
    upper = int(arrays["upper_total"][i])
    if upper >= rules.upper_cap:
        upper = min(t for t in upper_totals(rules, used) if t >= upper)
    return Position.make(rules, used=used, upper_total=upper, dice=dice_of(arrays["counts"][i]),
                         rolls_left=int(arrays["rolls_left"][i]), yahtzee_bonus=bool(arrays["yahtzee_bonus"][i]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--baseline", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rules = get_rules(args.rules)
    solution = solution_for(rules)
    arrays = random_positions(rules, args.positions, np.random.default_rng(2026))
    advise_batch(rules, **arrays, solution=solution)                  # compile, outside the timings
    times, cpu = [], []
    for _ in range(args.repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        batch = advise_batch(rules, **arrays, solution=solution)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    batch_s = statistics.median(times)
    positions = [position(rules, arrays, i) for i in range(args.baseline)]
    per_call = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for p in positions:
            advise(p, solution)
        per_call.append((time.perf_counter() - start) / len(positions))
    loop_s = statistics.median(per_call)
    gap = max(abs(a.value - batch.values[i, option_index(rules, a.action, a.keep, a.box)]) for i, p in enumerate(positions[:200])
              for a in advise(p, solution))
    print(f"{rules.name}: {args.positions:,} positions, {option_count(rules)} options each, "
          f"{os.cpu_count()} cores, numba threads {os.environ.get('NUMBA_NUM_THREADS', 'all')}, "
          f"load average {os.getloadavg()[0]:.1f} (the wall times count other processes' use)")
    print(f"  advise_batch: median {batch_s:.3f} s of {args.repeats} ({batch_s / args.positions * 1e6:.2f} us a position; "
          f"runs {', '.join(f'{t:.3f}' for t in times)}); CPU time (all threads) median "
          f"{statistics.median(cpu):.3f} s")
    print(f"  advise loop:  median {loop_s * 1e3:.3f} ms a position over {args.baseline:,} "
          f"(so {loop_s * args.positions:.1f} s for all)")
    print(f"  ratio: {loop_s * args.positions / batch_s:.0f}x; largest value gap on 200 positions {gap:.1e}")


if __name__ == "__main__":
    main()
