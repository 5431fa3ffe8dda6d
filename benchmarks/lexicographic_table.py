"""A lexicographic table solved whole, the turn engine (numpy) against the compiled pair kernel
(`engine/compiled/policy_table.py`), in one process (not a test).

    nice -n 10 env PYTHONPATH=. .venv/bin/python benchmarks/lexicographic_table.py \
        [--rules yahtzee-no-bonus] [--repeat 1]

Upper bonus first's whole table (`bonus_first.bonus_operator`: P(bonus), then this policy's mean)
of the rule set by both paths of `table_solver.solve_table`, alternated, --repeat times each (the
kernel compiled first, untimed); prints the medians, the ratio new / old, the start pair and
whether the two tables are bit for bit the same.

Measured 2026-11-28 (2-core machine shared with seven other sessions, niced):
  * yahtzee-no-bonus (524,288 states), medians of 3 alternated, load 3.1: turn engine 97.0 s,
    compiled 1.0 s (new/old 0.010, 98x); a single run at load 2.6: 85.8 s and 2.0 s (44x); start
    P(bonus) 0.952220, mean 212.5786; bit for bit the same.
  * yahtzee (1,048,576 states, jokers), load 5.6: turn engine 592.9 s, compiled 15.1 s (new/old 0.025,
    39x); start P(bonus) 0.952220, mean 213.5635; bit for bit the same.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="yahtzee-no-bonus")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    from yatzy_core.engine.table_solver import solve_table
    from yatzy_core.game.rules import get_rules
    from yatzy_core.game.states import StateSpace
    from yatzy_core.objectives.bonus_first import bonus_operator

    rules = get_rules(args.rules)
    space = StateSpace(rules)
    last = (1 << space.n_boxes) - 1 - 1
    solve_table(space, bonus_operator(rules), within=last)          # compile the kernel, untimed
    times, tables = {"turn engine": [], "compiled": []}, {}
    for _ in range(args.repeat):
        for name, compiled in (("turn engine", False), ("compiled", True)):
            start = time.perf_counter()
            tables[name] = solve_table(space, bonus_operator(rules, compiled)).data.reshape(space.size, 2)
            times[name].append(time.perf_counter() - start)
    old, new = (statistics.median(times[k]) for k in ("turn engine", "compiled"))
    reached = np.flatnonzero(space.reachable)
    same = np.array_equal(tables["turn engine"][reached], tables["compiled"][reached])
    start = tables["compiled"][space.index(0, 0)]
    print(f"{rules.name}: {space.size} states, load {os.getloadavg()[0]:.1f}, repeat {args.repeat}")
    print(f"  turn engine {old:.1f} s, compiled {new:.1f} s: new/old {new / old:.4f} ({old / new:.0f}x faster)")
    print(f"  start: P(bonus) {start[0]:.6f}, mean {start[1]:.4f}; tables bit for bit the same: {same}")


if __name__ == "__main__":
    main()
