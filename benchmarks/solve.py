"""Time the full solve of each rule set, its peak memory, and the advice latency.

Run by hand: `.venv/bin/python benchmarks/solve.py [--quick]`. Prints medians and the ratio of
the compiled kernel against the numpy reference solver, measured in this same process.
Targets (2-core machine): yahtzee <= 5 s, yatzy <= 10 s, peak memory <= 2 GB, advice <= 5 ms.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import time
import tracemalloc

import numpy as np

from yatzy_core.rules import get_rules
from yatzy_core.solver import solve
from yatzy_core.states import StateSpace

RULES = ["yahtzee", "yahtzee-verhoeff", "yahtzee-no-bonus", "yatzy", "yatzy-thesis"]


def timed_solve(name, backend, moments=False):
    start = time.perf_counter()
    solution = solve(name, progress=False, backend=backend, moments=moments)
    return time.perf_counter() - start, solution


def peak_solve_memory(name):
    """Peak bytes numpy allocates during one solve (tracemalloc sees numpy's buffers)."""
    tracemalloc.start()
    solve(name, progress=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def advice_latency(name, positions=1000, seed=0):
    """Median seconds of advise() over random positions (random used boxes, dice, rolls left)."""
    from yatzy_core.advisor import Position, advise, upper_totals
    from yatzy_core.cache import get_solution

    rules, rng = get_rules(name), np.random.default_rng(seed)
    solution = get_solution(rules, progress=False)
    times = []
    while len(times) < positions:
        used = {b for b in rules.box_names if rng.random() < 0.5}
        if len(used) == rules.n_boxes:
            continue
        totals = sorted(upper_totals(rules, used))
        position = Position.make(rules, used=used, upper_total=int(rng.choice(totals)),
                                 dice=list(rng.integers(1, 7, 5)), rolls_left=int(rng.integers(0, 3)))
        start = time.perf_counter()
        advise(position, solution)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run each, no numpy baseline")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats

    solve("yahtzee-no-bonus", progress=False)  # compile the kernel once, outside the timings
    print("solve = values only (median); +moments = values and second moments (median);\n"
          "numpy = the numpy reference backend (one run); ratio = numpy / solve")
    print(f"{'rules':18} {'states':>9} {'solve s':>8} {'+moments':>9} {'numpy s':>8} {'ratio':>6}"
          f" {'E[score]':>9} {'std':>8}")
    for name in RULES:
        seconds = statistics.median(timed_solve(name, "numba")[0] for _ in range(repeats))
        runs = [timed_solve(name, "numba", moments=True) for _ in range(repeats)]
        with_moments = statistics.median(t for t, _ in runs)
        solution = runs[0][1]
        baseline = "" if args.quick else timed_solve(name, "numpy")[0]
        ratio = f"{baseline / seconds:6.1f}" if baseline else ""
        baseline = f"{baseline:8.2f}" if baseline else ""
        states = StateSpace(get_rules(name)).counts()["reachable_turn_states"]
        print(f"{name:18} {states:9,d} {seconds:8.2f} {with_moments:9.2f} {baseline:>8} {ratio:>6} "
              f"{solution.expected_score:9.4f} {solution.std:8.4f}", flush=True)
    print(f"peak traced memory, yatzy solve: {peak_solve_memory('yatzy') / 2**20:.0f} MiB; "
          f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:.0f} MiB")
    for name in ("yahtzee", "yatzy"):
        print(f"advice latency {name}: median {advice_latency(name) * 1e3:.2f} ms over 1000 positions")


if __name__ == "__main__":
    main()
