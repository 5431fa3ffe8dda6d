"""Benchmark of issue 10 (not a test): the whole target table of each rule set, its time and
size, the start probabilities of both policies and the two-player figures; writes them to
results/targets.json (with the command, machine, load and a checksum of the readings).

    NUMBA_NUM_THREADS=2 PYTHONPATH=. python benchmarks/targets.py [rules ...]

The start vector V(start, n), n = 0 .. N, is stored whole (7 decimals), so notebook 08 can
compute two-player figures from it without the minutes of a whole table.
"""
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

from yatzy_core.engine.cache import rules_fingerprint
from yatzy_core.objectives.distribution import score_distribution
from yatzy_core.objectives.policy_play import second_player
from yatzy_core.game.rules import get_rules
from yatzy_core.objectives.targets import solve_targets, target_table
from yatzy_core.version import __version__
from results_file import write_result   # this folder's record writer (run as a script)

RESULT = Path(__file__).resolve().parents[1] / "results" / "targets.json"
names = sys.argv[1:] or ["yahtzee-no-bonus", "yahtzee", "yatzy"]
record = json.loads(RESULT.read_text()) if RESULT.exists() else {"readings": {}, "solve_seconds": {}}
this_run = {}
for name in names:
    solve_targets(name, 5, within=(1 << 13) - 8)                 # compile outside the timing
    start = time.perf_counter()
    table = target_table(name)                    # float32, cached
    took = time.perf_counter() - start
    this_run[name] = round(table.seconds, 1)
    dist = score_distribution(name, progress=False)
    print(f"{name}: n_max {table.n_max}, solve {table.seconds:.1f} s (this call {took:.1f} s, "
          f"threads {os.environ.get('NUMBA_NUM_THREADS')}, load {os.getloadavg()[0]:.1f}), "
          f"table {table.nbytes / 1e6:.0f} MB in memory")
    mean = second_player(dist.probabilities, None, dist.probabilities)
    beat = second_player(dist.probabilities, table)
    print("  two players, first max-mean:", {k: round(v, 4) for k, v in mean.items()},
          "second plays to beat:", {k: round(v, 4) for k, v in beat.items()}, flush=True)
    vector = table.vector(table.space.index(0, 0, 0))
    kept = record["readings"].get(name, {}).get("two_players", {}).get("second plays to beat", {})
    if "tie" in kept and kept.get("second wins") == round(beat["second wins"], 6):
        beat = {**beat, "tie": kept["tie"], "first wins": kept["first wins"]}   # beat_ties.py's
    record["readings"][name] = {
        "n_max": table.n_max, "fingerprint": rules_fingerprint(get_rules(name)),
        "p_at_least": {str(t): {"playing_for_T": round(float(vector[t]), 6),
                                "playing_for_the_mean": round(dist.p_at_least(t), 6)}
                       for t in range(150, 351, 25) if t <= table.n_max},
        "start": [round(float(v), 7) for v in vector],
        "two_players": {"both max-mean": {k: round(v, 6) for k, v in mean.items()},
                        "second plays to beat": {k: round(v, 6) for k, v in beat.items()}}}
record.update(package="yatzy-core", version=__version__, date=str(datetime.date.today()),
              command=f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'unset')} "
                      "python benchmarks/targets.py " + " ".join(names),
              machine={"platform": platform.platform(), "cpu": platform.processor() or "unknown",
                       "cores": os.cpu_count(), "load_at_end": round(os.getloadavg()[0], 1),
                       "note": record.get("machine", {}).get("note", "")})
record["solve_seconds_last_run"] = {**record.get("solve_seconds_last_run", {}), **this_run}
write_result(RESULT, record)
print("wrote", RESULT)
