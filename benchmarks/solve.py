"""The solver at the hardware limit: state counts, compile time, values time, achieved rate.

Run by hand on a quiet machine: `.venv/bin/python benchmarks/solve.py [--quick] [--rules NAME ...]`.
Per rule set it prints the reachable and distinct (collapsed) turn states, the values solve
(median of 5, all threads), nanoseconds of core time per distinct state, an estimate of the
achieved GFLOP/s, the numpy reference solver in this same process and the ratio, the moments
pass, and the peak RSS of a fresh process that solves it. Then the kernel's compile time (fresh
numba cache), 1 vs 2 threads, advice latency and 100,000 optimal games.
Goals on 2 cores (issue 9): yatzy <= 0.5 s, yahtzee <= 0.25 s, yahtzee-no-bonus <= 0.15 s.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from yatzy_core.engine.compiled.layout import tables
from yatzy_core.game.rules import get_rules
from yatzy_core.engine.solver import solve
from yatzy_core.game.states import StateSpace

RULES = ["yahtzee", "yahtzee-verhoeff", "yahtzee-no-bonus", "yatzy", "yatzy-thesis",
         "forced-yatzy", "yahtzee-3-rerolls"]
HERE = os.path.dirname(os.path.abspath(__file__))


def median_seconds(run, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def useful_flops(name) -> float:
    """Floating-point operations the kernel must do for one rule set (lane padding excluded):
    per distinct state, each reroll stage averages every smaller keeper over its faces and takes
    the max over each keeper's distinct children; the last roll does an add and a max for every
    (roll, open box) pair it visits; the first roll is a dot product."""
    rules, space, (s, t) = get_rules(name), StateSpace(get_rules(name)), tables(get_rules(name))
    reach = np.flatnonzero(space.reachable)
    distinct = reach[space.representatives(reach) == reach]
    masks = space.decode(distinct)[0]
    masks = masks[masks != (1 << rules.n_boxes) - 1]
    listed = np.arange(rules.n_boxes)[None, :] < t.n_scoring[:, None]
    per_box = np.bincount(t.scoring[listed], minlength=rules.n_boxes)   # rolls scoring in each box
    open_boxes = ((masks[:, None] >> np.arange(rules.n_boxes)) & 1) == 0
    last_roll = 2.0 * (open_boxes @ per_box).sum() + open_boxes.sum()
    stage = s.roll_offset * (s.faces + 1) + t.n_sub.sum()
    per_state = (s.rolls_per_turn - 1) * stage + 2 * rules.dice.n_rolls
    return last_roll + per_state * len(masks)


def peak_rss_mb(name) -> float:
    """Peak resident memory of a fresh process that solves `name` (values only)."""
    code = ("import resource; from yatzy_core.engine.solver import solve; solve(%r, progress=False); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)" % name)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def compile_seconds() -> tuple[float, float]:
    """(first solve of yahtzee-no-bonus in a fresh process with an empty numba cache, the same
    with the cache that run left): the compile time, and what a later first call costs."""
    code = ("import time; from yatzy_core.engine.solver import solve; t = time.perf_counter(); "
            "solve('yahtzee-no-bonus', progress=False); print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as empty:
        env = dict(os.environ, NUMBA_CACHE_DIR=empty)
        runs = [float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                     text=True, check=True).stdout.split()[-1]) for _ in range(2)]
    return runs[0], runs[1]


def advice_latency(name, positions=1000, seed=0):
    """Median seconds of advise() over random positions (random used boxes, dice, rolls left)."""
    from yatzy_core.advice.advisor import advise
    from yatzy_core.engine.position import Position, upper_totals
    from yatzy_core.engine.cache import get_solution

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
    parser.add_argument("--quick", action="store_true",
                        help="numpy baseline on yahtzee-no-bonus only, no subprocess figures")
    parser.add_argument("--rules", nargs="*", default=RULES)
    args = parser.parse_args()
    cores = numba.get_num_threads()
    solve("yahtzee-no-bonus", progress=False)  # compile (or load) the kernel outside the timings
    print(f"{cores} threads; values = median of 5; ns/state = core time per distinct state; "
          f"numpy = reference backend, one run in this process; ratio = numpy / values")
    print(f"{'rules':18} {'reachable':>10} {'distinct':>10} {'values s':>9} {'ns/state':>9} "
          f"{'GFLOP/s':>8} {'numpy s':>8} {'ratio':>6} {'moments s':>9} {'x values':>8} "
          f"{'RSS MB':>7} {'E[score]':>9}")
    for name in args.rules:
        counts = StateSpace(get_rules(name)).counts()
        values = median_seconds(lambda: solve(name, progress=False), 5)
        moments = median_seconds(lambda: solve(name, progress=False, moments=True), 3)
        score = solve(name, progress=False).expected_score
        baseline = ""
        if not args.quick or name == "yahtzee-no-bonus":
            baseline = median_seconds(lambda: solve(name, progress=False, backend="numpy"), 1)
        ratio = f"{baseline / values:6.1f}" if baseline else ""
        baseline = f"{baseline:8.2f}" if baseline else ""
        rss = "" if args.quick else f"{peak_rss_mb(name):7.0f}"
        ns = values * cores / counts["distinct_turn_states"] * 1e9
        print(f"{name:18} {counts['reachable_turn_states']:10,d} {counts['distinct_turn_states']:10,d} "
              f"{values:9.3f} {ns:9.0f} {useful_flops(name) / values / 1e9:8.1f} {baseline:>8} "
              f"{ratio:>6} {moments:9.2f} {moments / values:8.1f} {rss:>7} {score:9.4f}", flush=True)
    for threads in (1, cores):
        numba.set_num_threads(threads)
        t = median_seconds(lambda: solve("yatzy", progress=False), 5)
        print(f"yatzy values with {threads} thread(s): {t:.3f} s")
    if not args.quick:
        first, later = compile_seconds()
        print(f"first solve of yahtzee-no-bonus in a new process: {first:.2f} s with an empty numba "
              f"cache (compile), {later:.2f} s once cached")
    for name in ("yahtzee", "yatzy"):
        print(f"advice latency {name}: median {advice_latency(name) * 1e3:.2f} ms over 1000 positions")
    from yatzy_core.engine.cache import get_solution
    from yatzy_core.players.simulation import simulate
    solution = get_solution("yahtzee", progress=False)
    simulate("yahtzee", "optimal", games=1000, seed=0, progress=False, solution=solution)
    start = time.perf_counter()
    simulate("yahtzee", "optimal", games=100_000, seed=0, progress=False, solution=solution)
    print(f"100,000 optimal games of yahtzee: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
