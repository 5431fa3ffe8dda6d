"""The compiled policy driven by data (PolicyTables: primary values, weights, tie scale, tie-break
values) against the same passes switched by modes, side by side in one process (not a test).

    git archive <old commit> yatzy_core | tar -x -C /tmp/old && mv /tmp/old/yatzy_core /tmp/old/yatzy_core_old
    nice -n 10 env PYTHONPATH=. .venv/bin/python benchmarks/policy_data.py --old /tmp/old \
        [--rules yahtzee] [--open 9] [--goal 150] [--theta 0.05] [--repeat 3]

A late subgame (the last --open boxes open; a whole game's target pass takes minutes) of the rule
set: the target policy's pass for --goal and the risk policy's for --theta, old and new
alternately, --repeat times each (the tables solved once, by the new code, and given to both).
Prints the medians, the ratio new / old (the goal: no slower, about 1), and whether the
distributions are bit for bit the same.

Measured 2026-11-28 (2-core machine shared with seven other sessions, load about 8.5; old = 8adc10a,
new = the data-driven PolicyTables), medians of 5, alternated:
  * yahtzee, 8 open, goal 120: target 2.212 s -> 1.840 s (0.83x); risk theta=0.05 1.800 s -> 1.628 s
    (0.90x); distributions bit for bit the same.
  * yatzy, 9 open, goal 150, theta=-0.05: a first run target 3.448 s -> 3.016 s (0.88x), risk 3.051 s
    -> 3.286 s (1.08x); a second (medians of 7, load about 7) target 2.556 s -> 2.312 s (0.90x), risk
    1.676 s -> 1.408 s (0.84x); bit for bit the same. No slower, within the machine's noise.
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", required=True, help="a folder holding the old package as yatzy_core_old")
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--open", type=int, default=9)
    parser.add_argument("--goal", type=int, default=150)
    parser.add_argument("--theta", type=float, default=0.05)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, args.old)
    old = {m: importlib.import_module(f"yatzy_core_old.objectives.{m}") for m in ("policy_play", "targets", "risk")}
    from yatzy_core.game.rules import get_rules
    from yatzy_core.game.states import StateSpace
    from yatzy_core.objectives import policy_play as new_play
    from yatzy_core.objectives.risk import risk_table
    from yatzy_core.objectives.targets import solve_targets

    rules = get_rules(args.rules)
    old_rules = importlib.import_module("yatzy_core_old.game.rules").get_rules(args.rules)
    space = StateSpace(rules)
    mask = (1 << (space.n_boxes - args.open)) - 1           # the first boxes used
    start = ([space.index(mask, 0)], [0], [1.0])
    targets = solve_targets(rules, args.goal, within=mask)
    risk = risk_table(rules, args.theta, within=mask)
    old_targets = old["targets"].Targets(old_rules, targets.n_max, targets.band, targets.offset, targets.data)
    old_risk = old["risk"].RiskTable(old_rules, risk.theta, risk.utilities, 0.0, mask)
    passes = {
        "target": (lambda: old["policy_play"].target_play(old_targets, args.goal, start=start),
                   lambda: new_play.target_play(targets, args.goal, start=start)),
        "risk": (lambda: old["policy_play"].risk_play(old_risk, start=start),
                 lambda: new_play.risk_play(risk, start=start)),
    }
    for name, (before, after) in passes.items():
        a, b = before(), after()                              # compiled, and compared
        same = np.array_equal(a.distribution.probabilities, b.distribution.probabilities)
        times = {"old": [], "new": []}
        for _ in range(args.repeat):
            for label, run in (("old", before), ("new", after)):
                clock = time.perf_counter()
                run()
                times[label].append(time.perf_counter() - clock)
        o, n = statistics.median(times["old"]), statistics.median(times["new"])
        print(f"{args.rules} {args.open} open, {name}: old {o:.3f} s, new {n:.3f} s (medians of {args.repeat}), "
              f"new/old {n / o:.3f}; bit for bit the same: {same}", flush=True)


if __name__ == "__main__":
    main()
