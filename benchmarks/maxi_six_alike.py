"""Which games ended with six alike, in both Maxi Yatzy readings (not a test): writes
results/maxi-six-alike.json.

    NUMBA_NUM_THREADS=2 PYTHONPATH=. python benchmarks/maxi_six_alike.py    # a few minutes, 0.8 GB

`benchmarks/maxi_yatzy.py` played 10,000 optimal games of each reading with seed 0, and both
readings' Maxi Yatzy box averaged 23.54: 2,354 games each ended with six alike. Equal counts do not
say that they are the same games: the games draw their dice from one seeded stream, but a reroll
of a different keeper draws differently from then on. This script solves each reading again (the
same float32 tables), plays the same 10,000 seeded games, checks each count against that record,
and counts the games that made six alike under both readings, under one only, and the games
that are the same game box for box.
"""
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from yatzy_core.engine.solver import solve
from yatzy_core.players.simulation import simulate
from yatzy_core.version import __version__
from maxi_yatzy import READINGS, RESULT as RECORD, reading   # this folder's Maxi Yatzy benchmark
from results_file import write_result                         # this folder's record writer

RESULT = Path(__file__).resolve().parents[1] / "results" / "maxi-six-alike.json"


def played(name: str, games: int, seed: int):
    """The per-box points of `games` seeded optimal games of one reading."""
    rules = reading(name)
    solution = solve(rules, progress=True, dtype=np.float32)
    frame = simulate(rules, "optimal", games=games, seed=seed, progress=True, solution=solution)
    return frame.drop(columns=[c for c in frame.columns if c == "yahtzee_bonus"])


def main() -> int:
    start, load = time.perf_counter(), round(os.getloadavg()[0], 1)
    record = json.loads(RECORD.read_text())["readings"]
    games, seed = (record[READINGS[0]]["simulation"][k] for k in ("games", "seed"))
    frames = {name: played(name, games, seed) for name in READINGS}
    six = {name: frame["maxi_yatzy"].to_numpy() == 100 for name, frame in frames.items()}
    for name in READINGS:                                           # the same games as the record
        assert abs(100 * six[name].mean() - record[name]["simulation"]["box_means"]["maxi_yatzy"]) < 1e-9, name
    a, b = (six[name] for name in READINGS)
    boxes = [c for c in frames[READINGS[0]].columns if c not in ("upper_bonus", "total")]
    same_game = (frames[READINGS[0]][boxes].to_numpy() == frames[READINGS[1]][boxes].to_numpy()).all(axis=1)
    readings = {"games": int(games), "seed": int(seed), "readings": list(READINGS),
                "six_alike": {name: int(six[name].sum()) for name in READINGS},
                "six_alike_in_both": int((a & b).sum()),
                "six_alike_only_in": {READINGS[0]: int((a & ~b).sum()), READINGS[1]: int((b & ~a).sum())},
                "same_points_in_every_box": int(same_game.sum())}
    print(json.dumps(readings, indent=1), flush=True)
    write_result(RESULT, {"readings": readings, "package": "yatzy-core", "version": __version__,
                          "date": str(datetime.date.today()),
                          "command": f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'unset')} "
                                     "PYTHONPATH=. python benchmarks/maxi_six_alike.py",
                          "seconds": round(time.perf_counter() - start, 1),
                          "machine": {"platform": platform.platform(), "python": platform.python_version(),
                                      "cores": os.cpu_count(), "load_at_start": load},
                          "note": "shared 2-core machine (other jobs running): the seconds are an upper bound"})
    print("wrote", RESULT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
