"""Benchmark of issue 47, item 5 (not a test): how far back the outscore approximation answers the
real games now that its table is stored as bands (`objectives.outscore`). For each game, positions
from the first turn on (the mover's first boxes used, the opponent's card the same, lead 0 and the
widest lead that still needs a table: a tie at best; further behind is a sure loss, no table),
each in a fresh process on an empty cache (the max-mean solution the opponent's distribution
needs is solved by the first one and timed apart), with the table's
time, the turn's and the process's peak memory; a table over `TABLE_BUDGET` is refused in one line.
Writes results/outscore_reach.json (command, time, machine, load before and after).

    PYTHONPATH=. python benchmarks/outscore_reach.py [--even] [--used N,N] [RULES ...]

--even: lead 0 only (the widest lead's bytes are `outscore.table_bytes`'s, exact, without a build);
--used: the boxes used by both players (default 0,3,6). Each reading is written as it comes; on a
loaded 2-core machine the first turns of yatzy and yahtzee take some 10-25 minutes each.
"""
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from results_file import write_result                  # noqa: E402

RESULT = Path(__file__).resolve().parents[1] / "results" / "outscore_reach.json"
GAMES = ("yahtzee-no-bonus", "yatzy", "yahtzee")
USED = (0, 3, 6)            # the first boxes of the card used by both players

CHILD = r"""
import json, resource, sys, time
from yatzy_core.engine.position import Position
from yatzy_core.engine.solutions import solution_for
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.opponent_card import OpponentCard
from yatzy_core.objectives.outscore import Outscore
from yatzy_core.objectives.targets import most_gain
name, used, lead = sys.argv[1], int(sys.argv[2]), sys.argv[3]
start = time.perf_counter()
solution = solution_for(name, None, progress=False)            # max-mean (cached by the first child)
mean_s = time.perf_counter() - start
position = Position.make(name, used=",".join(solution.rules.box_names[:used]), dice="12345", rolls_left=2)
card = OpponentCard(frozenset(position.used))
space = StateSpace(position.rules)
lead = -int(most_gain(space, [position.state(space)])[0]) if lead == "widest" else int(lead)   # a tie still possible
objective = Outscore(card, lead)
row = {"rules": name, "used": used, "lead": lead, "max_mean_seconds": round(mean_s, 1)}
try:
    row["work"] = objective.work(position.rules, position)[0]
    start = time.perf_counter()
    table = objective.table(position)
    row["table_seconds"] = round(time.perf_counter() - start, 1)
    row["table_gb"] = round(table.nbytes / 1e9, 3)
    start = time.perf_counter()
    turn, pick = objective.turn(position, table)
    row["turn_seconds"] = round(time.perf_counter() - start, 2)
    row["value"] = round(float(pick(turn.start).ravel()[0]), 6)      # from the start of the turn
except ValueError as err:
    row["refused"] = str(err)
row["cpu_seconds"] = round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 1)
row["peak_gb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, 2)
print(json.dumps(row))
"""


def measure(name: str, used: int, lead: str, env: dict) -> dict:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, name, str(used), lead], env=env, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"{name} {used} {lead}: {done.stderr.strip().splitlines()[-1]}")
    row = json.loads(done.stdout.strip().splitlines()[-1])
    row["process_seconds"] = round(time.perf_counter() - start, 1)
    return row


def main(argv):
    leads = ("0",) if "--even" in argv else ("0", "widest")
    used_counts = USED
    if "--used" in argv:
        used_counts = tuple(int(u) for u in argv[argv.index("--used") + 1].split(","))
    games = [a for a in argv if a in GAMES] or GAMES
    load = round(os.getloadavg()[0], 1)
    readings = json.loads(RESULT.read_text())["readings"] if RESULT.exists() else {}   # others' runs kept
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, YATZY_CACHE_DIR=cache)
        for name in games:
            for used in used_counts:
                for lead in leads:
                    row = measure(name, used, lead, env)
                    row["load_after"] = round(os.getloadavg()[0], 1)
                    readings[f"{name}, {used} used, lead {row['lead']}"] = row
                    print(json.dumps(row), flush=True)
                    _write(argv, load, readings)


def _write(argv, load, readings):
    record = {"command": "PYTHONPATH=. python benchmarks/outscore_reach.py " + " ".join(argv),
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()} {os.cpu_count()} cores, "
                         f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 1e9:.0f} GB",
              "numba_threads": os.environ.get("NUMBA_NUM_THREADS", "default"),
              "load_before": load, "load_after": round(os.getloadavg()[0], 1), "readings": readings}
    write_result(RESULT, record)


if __name__ == "__main__":
    main(sys.argv[1:])
