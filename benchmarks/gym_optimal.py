"""The Gymnasium environment played by the optimal agent of the batch API: 10,000 seeded games.

Run by hand: `.venv/bin/python benchmarks/gym_optimal.py [--rules yahtzee] [--games 10000]`.

G environments (`players.gym_env.Env`, advice=False: the agent asks for itself) are played in
lockstep: at each step every game still going is advised in one `advise_batch` call and takes its
best action. The games' mean score must lie within 3 standard errors of the exact expected score
(the solved table's start value); prints the mean, the standard error, the gap in standard
errors and the time. Game g is reset with seed first-seed + g (default 0).
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from yatzy_core import advise_batch, get_rules
from yatzy_core.engine.solutions import solution_for
from yatzy_core.players.gym_env import Env

KEYS = ("counts", "used", "upper_total", "yahtzee_bonus", "rolls_left")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--first-seed", type=int, default=0, help="game g is reset with seed first-seed + g")
    args = parser.parse_args()
    rules = get_rules(args.rules)
    solution = solution_for(rules)
    start = time.perf_counter()
    envs = [Env(rules, solution=solution, advice=False) for _ in range(args.games)]
    observations = [env.reset(seed=args.first_seed + g)[0] for g, env in enumerate(envs)]
    scores = np.zeros(args.games)
    live = list(range(args.games))
    steps = advise_s = 0
    weights = 1 << np.arange(rules.n_boxes)
    while live:
        obs = [observations[g] for g in live]
        arrays = {k: np.array([o[k] for o in obs]) for k in KEYS}
        arrays["used"] = arrays["used"] @ weights
        t = time.perf_counter()
        best = advise_batch(rules, **arrays, solution=solution).best
        advise_s += time.perf_counter() - t
        still = []
        for g, action in zip(live, best):
            observations[g], reward, done, _, _ = envs[g].step(action)
            scores[g] += reward
            steps += 1
            if not done:
                still.append(g)
        live = still
    wall = time.perf_counter() - start
    mean, se = scores.mean(), scores.std(ddof=1) / math.sqrt(args.games)
    exact = solution.expected_score
    print(f"{rules.name}: {args.games:,} games (seeds {args.first_seed}..{args.first_seed + args.games - 1}), {steps:,} steps, {wall:.1f} s ({advise_s:.1f} s in advise_batch)")
    print(f"  mean {mean:.3f}, standard error {se:.3f}, exact {exact:.3f}: "
          f"{(mean - exact) / se:+.2f} standard errors ({'within' if abs(mean - exact) <= 3 * se else 'OUTSIDE'} 3)")


if __name__ == "__main__":
    main()
