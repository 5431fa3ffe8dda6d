"""The coach's and explorer's outlook under a policy: the final-score distribution of the target
and risk policies from inside a turn (`midgame.target_position_distribution`,
`risk_position_distribution`), against the max-mean pass from the same position
(`midgame.position_distribution`, the baseline, run in this process), by boxes still open.
Tables of the open boxes' subgame are solved first and not timed. This is what sets
`objective.OUTLOOK_OPEN`.

    .venv/bin/python benchmarks/outlook.py [--rules yahtzee-no-bonus] [--open 7 8 9]
"""
from __future__ import annotations

import argparse
import time

from yatzy_core.engine.cache import get_solution
from yatzy_core.engine.position import Position
from yatzy_core.objectives.midgame import (position_distribution, risk_position_distribution,
                                           target_position_distribution)
from yatzy_core.objectives.risk import risk_table
from yatzy_core.objectives.targets import solve_targets


def timed(f):
    start = time.perf_counter()
    out = f()
    return out, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="yahtzee-no-bonus")
    ap.add_argument("--open", type=int, nargs="+", default=[7, 8, 9])
    ap.add_argument("--need", type=int, default=150, help="points still needed by the goal")
    ap.add_argument("--theta", type=float, default=0.05)
    args = ap.parse_args()
    solution = get_solution(args.rules, progress=False)
    names = solution.rules.box_names
    for n_open in args.open:
        p = Position.make(args.rules, used=names[:len(names) - n_open], dice="11234", rolls_left=2)
        targets, t_solve = timed(lambda: solve_targets(args.rules, args.need, within=p.mask))
        utilities = risk_table(args.rules, args.theta, within=p.mask)
        position_distribution(p, solution, 100)                     # compiled before timing
        mean, t_mean = timed(lambda: position_distribution(p, solution, 100))
        goal, t_goal = timed(lambda: target_position_distribution(p, targets, 100 + args.need, 100))
        risk, t_risk = timed(lambda: risk_position_distribution(p, utilities, 100))
        print(f"{args.rules}, {n_open} open: max-mean {t_mean:.2f} s; target {t_goal:.2f} s "
              f"({t_goal / t_mean:.1f}x; its table {t_solve:.1f} s); risk {t_risk:.2f} s "
              f"({t_risk / t_mean:.1f}x); P(>= {100 + args.need}) {mean.p_at_least(100 + args.need):.4f} "
              f"max-mean, {goal.p_at_least(100 + args.need):.4f} playing for it", flush=True)


if __name__ == "__main__":
    main()
