"""The beat policy's ties on whole games (issue 10, not a test): W(start, n) by
`policy_play.tie_table` along the cached whole target table, then P(second wins / tie / first
wins) when the second player plays to beat the first's known max-mean score. Compiled (the
policy's lane kernel, states in parallel; ties among equally likely choices broken by the mean,
as the forward pass breaks them); stored in results/targets.json.

    nice -n 19 PYTHONPATH=. python benchmarks/beat_ties.py yahtzee-no-bonus

Each run's seconds are stored with the commit, the date and the load average before and after
(`tie_runs`): the machine is shared, so they are upper bounds.
"""
import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from numba import get_num_threads
from results_file import write_result   # this folder's record writer (run as a script)

from yatzy_core.objectives.distribution import score_distribution
from yatzy_core.objectives.policy_play import tie_table
from yatzy_core.objectives.policy_play import second_player
from yatzy_core.objectives.targets import target_table

RESULT = Path(__file__).resolve().parents[1] / "results" / "targets.json"


def commit() -> str:
    """The commit the code runs at, and whether the code (the package, the benchmarks) differs
    from it: the results file itself changes with every run."""
    try:
        git = dict(capture_output=True, text=True, cwd=RESULT.parent, check=True)
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], **git).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                "yatzy_core", "benchmarks"], **git).stdout.strip()
        return head + (" (with uncommitted changes to the code)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


CODE = commit()   # read at the start: the code that runs


for name in sys.argv[1:] or ["yahtzee-no-bonus"]:
    table = target_table(name)
    load_before = round(os.getloadavg()[0], 1)
    start = time.perf_counter()
    W = tie_table(table, dtype=np.float32,
                  progress=lambda used: print(f"  {name}: layer {used} at {time.perf_counter() - start:.0f} s", flush=True))
    took = time.perf_counter() - start
    first = score_distribution(name, progress=False).probabilities
    beat = second_player(first, table, ties=W[table.space.index(0, 0, 0)].astype(np.float64))
    print(f"{name}: tie table in {took:.0f} s; second plays to beat: {beat}", flush=True)
    record = json.loads(RESULT.read_text())
    record["readings"][name]["two_players"]["second plays to beat"] = {k: round(v, 6) for k, v in beat.items()}
    record.setdefault("tie_runs", {})[name] = {
        "seconds": round(took), "commit": CODE, "date": str(datetime.date.today()),
        "cores": os.cpu_count(), "threads": get_num_threads(), "load_before": load_before,
        "load_after": round(os.getloadavg()[0], 1),
        "command": f"python benchmarks/beat_ties.py {name}"}
    write_result(RESULT, record)
