"""Benchmark the simulator: 100,000 optimal games of Yahtzee (target <= 10 s on 2 cores), then
the games per second of every other strategy.

    .venv/bin/python benchmarks/simulate.py [--games 100000] [--repeat 3] [--rules yahtzee]

Each timing is the median of `repeat` runs in this one process, end to end through
`simulate()` (the solved table is read from the per-user cache; it is solved first if absent,
outside the timing). Seeds differ between runs, so the runs are not replays of each other.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from yatzy_core.engine.cache import get_solution
from yatzy_core.players.simulation import simulate
from yatzy_core.players.registry import strategy_names

OTHER_GAMES = {"mc_planner": 20}   # games per timing run for the slow players
DEFAULT_OTHER_GAMES = 20_000


def timed(rules: str, strategy: str, games: int, repeat: int) -> tuple[float, float, float]:
    """Median wall seconds and median CPU seconds (all threads) of `repeat` runs, and the mean
    score of the last one. CPU seconds show what a run costs when other work shares the
    machine: on 2 idle cores the wall time is a little over half of them."""
    seconds, cpu, mean = [], [], 0.0
    for seed in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        frame = simulate(rules, strategy, games=games, seed=seed, progress=False)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        mean = float(frame["total"].mean())
    return statistics.median(seconds), statistics.median(cpu), mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--games", type=int, default=100_000, help="optimal games per run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only-optimal", action="store_true")
    args = parser.parse_args()

    get_solution(args.rules, progress=True)     # solve once if the cache is empty, untimed
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} CPUs, load average {load:.1f}; rules {args.rules}; "
          f"median of {args.repeat} runs")
    seconds, cpu, mean = timed(args.rules, "optimal", args.games, args.repeat)
    verdict = "meets" if seconds <= 10 else "misses"
    print(f"optimal: {args.games:,} games in {seconds:.2f} s ({cpu:.2f} CPU s) = "
          f"{args.games / seconds:,.0f} games/s (mean {mean:.2f}); {verdict} the 10 s target")
    if args.only_optimal:
        return
    for name in strategy_names():
        if name == "optimal":
            continue
        games = OTHER_GAMES.get(name, DEFAULT_OTHER_GAMES)
        seconds, cpu, mean = timed(args.rules, name, games, args.repeat)
        print(f"{name}: {games:,} games in {seconds:.2f} s ({cpu:.2f} CPU s) = "
              f"{games / seconds:,.1f} games/s (mean {mean:.2f})")


if __name__ == "__main__":
    main()
