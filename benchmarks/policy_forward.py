"""Issue 19's speed goals for whole-game policy distributions, timed in one process (not a test).

    nice -n 10 env PYTHONPATH=. .venv/bin/python benchmarks/policy_forward.py \
        [--rules yatzy yahtzee-no-bonus] [--theta 0.05] [--goal 250] [--repeat 3] [--skip-target]

Per rule set, each timed --repeat times (median shown, wall and CPU seconds):
  * the max-mean forward pass (`distribution.forward`, from the cached values): the baseline;
  * the risk policy's forward pass for theta (`policy_play.risk_play`, its utility table from
    the cache, not timed): goal <= 10 s for Yatzy on 2 cores, reported as a ratio to the baseline;
  * the target table's solve (`targets.solve_targets` to the cap `target_table` uses, float32)
    and the target policy's forward pass for --goal on it: goal ratio <= 1.
The machine is shared: CPU time (time.process_time, all threads) and the load average before
and after each rule set are printed beside the wall times; compare ratios, not seconds.

Measured 2026-11-24 (2-core machine; CPU time, all threads):
  * lanes one at a time (load 4-7, repeat 1): yatzy risk 50.5 s against max-mean 18.3 s (2.8x);
    yahtzee-no-bonus risk 14.8 s against 6.1 s (2.4x), target T=250 290 s against its table's
    29 s (10x);
  * lanes 8 at a time (`policy_lanes`; load about 1 at the start, repeat 2): yahtzee-no-bonus
    max-mean 3.5 s, risk 11.4 s (3.3x), table 28.3 s; the target pass, timed in the frontier run
    (results/frontier.json, load 4-5): T=250 167 s CPU (5.9x its table), T=150..350 40-195 s;
    yatzy risk 40-45 s, target T=150 742 s.
Measured 2026-11-25 (load about 1-2 at the start, the code before and after in the same hour,
back to back): a state's slots from score classes (`policy_turn.score_classes`) instead of
scoring every roll x box, and the last roll chosen for 8 states at once (risk and mean):
  * yatzy risk theta=0.05 (repeat 3, medians): 24.69 s -> 11.83 s wall (4.25x -> 1.98x max-mean's
    5.98 s); yahtzee 7.48 s -> 4.53 s (2.29x -> 1.48x);
  * yahtzee-no-bonus (repeat 1): risk 7.42 s -> 3.55 s (3.48x -> 1.74x max-mean); target T=250
    121.5 s -> 112.6 s wall (216 s -> 215 s CPU; its table 16-29 s): the target pass is its lanes'
    work (per lane the mean for the tie rule, the tie walk, the final roll's probabilities followed
    and merged), which scoring by classes does not touch.
The goals (risk <= 10 s for Yatzy: 11.8 s; target <= its table: about 4-7x) were not met then.
Measured 2026-11-25, later (load about 1-2, repeat 1; d307c80 and 4418ffa back to back): the push
finds each slot's next row once per state; unsigned indices and a max, not a sum, in the lanes'
walks:
  * yatzy: risk 7.72 s -> 7.10 s (1.37x -> 1.31x max-mean's 5.4-5.6 s); target T=250 225.8 s ->
    181.7 s (3.23x -> 2.69x its table's 68-70 s);
  * yahtzee-no-bonus: risk 2.26 s -> 2.09 s (1.18x -> 1.19x); target T=250 70.1 s -> 56.9 s
    (4.64x -> 3.76x its table's 15.1 s).
Measured 2026-11-25, later still (load about 1-2, repeat 1; 1849c60 and the change after it back to back):
a target lane whose points so far hold no probability is not worked (21.7% of yahtzee-no-bonus's
T=250 lanes):
  * yatzy target T=250 185.0 s -> 166.3 s wall (2.66x -> 2.43x its table's 68-69 s; CPU 361 ->
    324 s);
  * yahtzee-no-bonus target T=250 58.8 s -> 47.8 s (CPU 113 -> 92 s; 3.10x its table's 15.5 s).
Risk for Yatzy is under 10 s; the target pass is not yet within its table's time. (A ratio can
rise while the pass's seconds fall: its baseline, timed in the same run, moved too.)
Measured 2026-11-26 (another 2-core AMD EPYC machine, load 1.6-2.0, repeat 1, at 3179c90; the
passes' kernels unchanged since but for the int64 loop index of 2f7b462):
  * yatzy: max-mean 6.22 s; risk 6.40 s (1.03x); target table to 374 54.3 s; target T=250
    126.6 s wall, 249.9 s CPU (2.33x its table);
  * yahtzee-no-bonus: max-mean 1.40 s; risk 1.32 s (0.94x); table 11.4 s; target T=250 30.8 s
    (2.69x).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from yatzy_core.engine.cache import get_solution
from yatzy_core.game.rules import get_rules
from yatzy_core.objectives.distribution import forward
from yatzy_core.objectives.policy_play import risk_play, target_play
from yatzy_core.objectives.risk import risk_table
from yatzy_core.objectives.targets import max_total, solve_targets, table_cap


def timed(work, repeat: int):
    """(median wall s, median CPU s, last result) of `repeat` calls."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def line(what: str, wall: float, cpu: float, base=None) -> str:
    ratio = f"   ratio {wall / base[0]:6.2f} wall, {cpu / base[1]:6.2f} CPU" if base else ""
    return f"  {what:34s} {wall:8.2f} s wall {cpu:8.2f} s CPU{ratio}"


def one(name: str, theta: float, goal: int, repeat: int, target: bool) -> None:
    rules = get_rules(name)
    print(f"## {name}   (load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs)")
    solution = get_solution(rules, progress=False)
    utilities = risk_table(rules, theta)
    forward(solution)   # compiled code loaded once, outside the timings
    base = timed(lambda: forward(solution), repeat)
    print(line("max-mean forward", *base[:2]))
    wall, cpu, play = timed(lambda: risk_play(utilities), repeat)
    ce = np.log(play.distribution.probabilities @ np.exp(theta * np.arange(len(play.distribution.probabilities)))) / theta
    print(line(f"risk theta={theta:g} forward", wall, cpu, base[:2])
          + f"   CE {ce:.6f} (table {utilities.start_value:.6f})")
    if target:
        cap = table_cap(rules, min(goal, max_total(rules)))
        table_base = timed(lambda: solve_targets(rules, cap, dtype=np.float32), 1)
        print(line(f"target table to {cap} (solve, once)", *table_base[:2]))
        wall, cpu, play = timed(lambda: target_play(table_base[2], goal), repeat)
        print(line(f"target T={goal} forward", wall, cpu, table_base[:2])
              + f"   P(>= T) {play.distribution.p_at_least(goal):.6f} (table {table_base[2].p_at_least(goal):.6f})")
    print(f"  load average after: {os.getloadavg()[0]:.1f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=["yatzy", "yahtzee-no-bonus"])
    parser.add_argument("--theta", type=float, default=0.05)
    parser.add_argument("--goal", type=int, default=250)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-target", action="store_true", help="time the risk policy only")
    args = parser.parse_args(argv)
    for name in args.rules:
        one(name, args.theta, args.goal, args.repeat, not args.skip_target)


if __name__ == "__main__":
    main()
