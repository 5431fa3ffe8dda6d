"""Benchmark of issue 10 (not a test): the whole target table of each rule set, its time and
size, the start probabilities of both policies and the two-player figures.

    NUMBA_NUM_THREADS=2 PYTHONPATH=. python benchmarks/targets.py [rules ...]
"""
import os
import sys
import time

import numpy as np

from yatzy_core.distribution import score_distribution
from yatzy_core.goals import second_player
from yatzy_core.targets import N_MAX, solve_targets, target_table

for name in sys.argv[1:] or ["yahtzee-no-bonus", "yahtzee", "yatzy"]:
    solve_targets(name, 5, within=(1 << 13) - 8)                 # compile outside the timing
    start = time.perf_counter()
    table = target_table(name, N_MAX[name])                      # float32, cached
    took = time.perf_counter() - start
    dist = score_distribution(name, progress=False)
    print(f"{name}: n_max {table.n_max}, solve {table.seconds:.1f} s (this call {took:.1f} s, "
          f"threads {os.environ.get('NUMBA_NUM_THREADS')}), table {table.nbytes / 1e6:.0f} MB in memory")
    for t in (150, 200, 250, 300, 350):
        if t <= table.n_max:
            print(f"  P(final >= {t}): target {table.p_at_least(t):.4f}  max-mean {dist.p_at_least(t):.4f}")
    print("  two players, first max-mean:", {k: round(v, 4) for k, v in second_player(dist.probabilities, None, dist.probabilities).items()},
          "second plays to beat:", {k: round(v, 4) for k, v in second_player(dist.probabilities, table).items()},
          flush=True)
