"""The whole-game frontier (not a test): mean, std and P(total >= 200/250/300) of the target
policy for T = 150 .. 350 (step 25) and of the risk policy for theta in -0.2 .. 0.2, each by
the compiled forward pass (`policy_play.target_play`, `risk_play`) from the cached tables; writes
results/frontier.json (each run's command, machine and load in `runs`, each reading's time, a
checksum of the readings) after each reading: a run that is stopped goes on from the readings
already there.

    NUMBA_NUM_THREADS=2 PYTHONPATH=. python benchmarks/frontier.py [rules ...]

Checks on the way: each target policy's P(total >= T) is its table's start value (float32
table: to 1e-6), each risk policy's log E[exp(theta X)] / theta its utility table's start
value; and the max-mean reading is `score_distribution`'s. Thetas outside the rules' allowed
range (`risk.theta_range`) are left out. The machine is shared: the load is recorded.
"""
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from yatzy_core.engine.cache import rules_fingerprint
from yatzy_core.game.rules import get_rules
from yatzy_core.objectives.distribution import score_distribution
from yatzy_core.objectives.policy_play import risk_play, target_play
from yatzy_core.objectives.risk import risk_table, theta_range
from yatzy_core.objectives.targets import target_table
from yatzy_core.version import __version__
from results_file import write_result   # this folder's record writer (run as a script)

RESULT = Path(__file__).resolve().parents[1] / "results" / "frontier.json"
GOALS = list(range(150, 351, 25))
THETAS = [-0.2, -0.1, -0.05, -0.02, -0.01, 0.01, 0.02, 0.05, 0.1, 0.2]


def reading(d, seconds) -> dict:
    """One policy's figures, with when and by which version they were made (a resumed run keeps them)."""
    return {"mean": round(d.mean, 6), "std": round(d.std, 6), "seconds": round(seconds, 1),
            "date": str(datetime.date.today()), "version": __version__,
            **{f"p_at_least_{x}": round(d.p_at_least(x), 6) for x in (200, 250, 300)}}


def frontier(name: str, out: dict, save) -> dict:
    """Fill `out` (the rule set's readings so far) with those still missing, saving after each:
    a run that is stopped goes on where it was (readings of other rules, by fingerprint, are redone)."""
    rules = get_rules(name)
    if out.get("fingerprint") != rules_fingerprint(rules):
        out.clear()
    out.setdefault("fingerprint", rules_fingerprint(rules))
    if "max_mean" not in out:
        out["max_mean"] = reading(score_distribution(name, progress=False), 0.0)
    out.setdefault("target", {})
    out.setdefault("risk", {})
    lo, hi = theta_range(rules)
    for theta in [x for x in THETAS if lo <= abs(x) <= hi and f"{x:g}" not in out["risk"]]:
        clock = time.perf_counter()
        u = risk_table(rules, theta)
        made = time.perf_counter() - clock
        clock, cpu = time.perf_counter(), time.process_time()
        d = risk_play(u).distribution
        out["risk"][f"{theta:g}"] = {**reading(d, time.perf_counter() - clock),
                                     "cpu_seconds": round(time.process_time() - cpu, 1), "table_seconds": round(made, 1)}
        x = np.arange(len(d.probabilities))
        ce = np.log(d.probabilities @ np.exp(theta * x)) / theta
        assert abs(ce - np.log(np.sign(theta) * u[space_start(rules)]) / theta) < 1e-6, (name, theta)
        print(f"{name} theta={theta:g}: {out['risk'][f'{theta:g}']} (load {os.getloadavg()[0]:.1f})", flush=True)
        save()
    goals = [g for g in GOALS if str(g) not in out["target"]]
    if goals:
        table = target_table(rules)
        out["target_table_seconds"] = round(table.seconds, 1)
    for goal in goals:
        clock, cpu = time.perf_counter(), time.process_time()
        d = target_play(table, goal).distribution
        out["target"][str(goal)] = {**reading(d, time.perf_counter() - clock),
                                    "cpu_seconds": round(time.process_time() - cpu, 1)}
        assert abs(d.p_at_least(goal) - table.p_at_least(goal)) < 1e-5, (name, goal)
        print(f"{name} T={goal}: {out['target'][str(goal)]} (load {os.getloadavg()[0]:.1f})", flush=True)
        save()
    return out


def space_start(rules) -> int:
    from yatzy_core.game.states import StateSpace
    return int(StateSpace(rules).index(0, 0, 0))


def started(record: dict, names) -> None:
    """Add this run to the record's runs (a resumed run adds itself: the readings made by earlier
    runs keep the command, machine and load they were made with)."""
    runs = record.setdefault("runs", [])
    runs.append({"command": f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'unset')} "
                            "python benchmarks/frontier.py " + " ".join(names),
                 "date": str(datetime.date.today()), "version": __version__,
                 "machine": {"platform": platform.platform(), "cpu": platform.processor() or "unknown",
                             "cores": os.cpu_count(), "load_at_start": round(os.getloadavg()[0], 1)},
                 "note": "shared machine (other jobs running): the seconds are upper bounds"})


def save(record: dict) -> None:
    """Write the record as it stands (a temporary file renamed into place: never half a file)."""
    record.update(package="yatzy-core", version=__version__, date=str(datetime.date.today()))
    write_result(RESULT, record)


names = sys.argv[1:] or ["yahtzee-no-bonus", "yatzy", "yahtzee"]
record = json.loads(RESULT.read_text()) if RESULT.exists() else {"readings": {}}
started(record, names)
for name in names:
    frontier(name, record["readings"].setdefault(name, {}), lambda: save(record))
print("wrote", RESULT)
