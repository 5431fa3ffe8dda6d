"""Maxi Yatzy solved exactly (6 dice, 20 boxes, no saved rolls): the published numbers.
(benchmarks/maxi_saved_rolls.py solves the game as played, with saved rolls.)

Run by hand, one at a time, on a quiet machine (never in CI):

    .venv/bin/python benchmarks/maxi_yatzy.py                # both readings, about 20 minutes
                                                             # (the moments pass is most of it)
    .venv/bin/python benchmarks/maxi_yatzy.py --games 0      # no simulated games

Each reading runs in a fresh process of this script (so its peak RSS is its own): the state
counts, the values solve in float32 tables (the kernel computes in float64), the exact standard
deviation (the moments pass), and per-box averages estimated from optimal games played with the
solved tables (an exact forward pass over 57M states is not in the package). The simulated
mean must lie within 3 standard errors of the solved value. Everything goes to
results/maxi-yatzy-no-saved-rolls.json with the command, the machine and a sha256 of the stored values.

Readings: "maxi-yatzy-no-saved-rolls" is the Swedish rule sheet (upper bonus 100 at 84) without
saved rolls; "maxi-yatzy-no-saved-rolls-50-at-75"
is a what-if of ours with bonus 50 at 75 (no rule sheet we found prints it).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from yatzy_core.game.rules import Rules, get_rules
from yatzy_core.version import __version__

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "results" / "maxi-yatzy-no-saved-rolls.json"
READINGS = ("maxi-yatzy-no-saved-rolls", "maxi-yatzy-no-saved-rolls-50-at-75")
GAMES = 10_000   # optimal games per reading (about 2,000 a second): per-box averages to +-0.3
MAX_SE = 3.0    # the simulated mean must lie within this many standard errors of the solved value


def reading(name: str) -> Rules:
    """The rule set of a reading: the shipped file, or its copy with bonus 50 at 75."""
    if name == "maxi-yatzy-no-saved-rolls":
        return get_rules(name)
    if name == "maxi-yatzy-no-saved-rolls-50-at-75":
        return get_rules("maxi-yatzy-no-saved-rolls").with_(name=name, upper_bonus=50, upper_bonus_threshold=75)
    raise ValueError(f"unknown reading {name!r}; choose one of: {', '.join(READINGS)}")


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, MB (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def machine() -> dict:
    """What ran it: platform, CPU model and cores."""
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"platform": platform.platform(), "python": platform.python_version(),
            "cpu": model, "cores": os.cpu_count(), "load_average_at_start": round(os.getloadavg()[0], 2),
            "numba_threads": int(os.environ.get("NUMBA_NUM_THREADS") or os.cpu_count())}


def values_sha256(solution) -> str:
    """sha256 of the stored values of every reachable state, as little-endian float32."""
    stored = solution.values[solution.space.reachable]
    return hashlib.sha256(np.ascontiguousarray(stored, dtype="<f4").tobytes()).hexdigest()


def simulated(rules: Rules, solution, games: int, seed: int = 0) -> dict:
    """Per-box averages from `games` optimal games (seeded), and the check of their mean."""
    from yatzy_core.players.simulation import simulate, summary

    start = time.perf_counter()
    frame = simulate(rules, "optimal", games=games, seed=seed, progress=True, solution=solution)
    table = summary(frame)
    seconds = time.perf_counter() - start
    if not rules.tracks_yahtzee_bonus:
        table = table.drop("yahtzee_bonus")
    z = (table.loc["total", "mean"] - solution.expected_score) / table.loc["total", "sem"]
    return {"games": games, "seed": seed, "seconds": round(seconds, 1),
            "mean": round(float(table.loc["total", "mean"]), 4),
            "sem": round(float(table.loc["total", "sem"]), 4),
            "sample_std": round(float(table.loc["total", "std"]), 4),
            "z": round(float(z), 3), "within_3_se": bool(abs(z) <= MAX_SE),
            "box_means": {k: round(float(v), 4) for k, v in table["mean"].drop("total").items()},
            "box_sems": {k: round(float(v), 4) for k, v in table["sem"].drop("total").items()}}


def run_reading(name: str, games: int) -> dict:
    """Solve one reading in this process and return its numbers."""
    from yatzy_core.engine.cache import rules_fingerprint
    from yatzy_core.engine.solver import solve
    from yatzy_core.game.states import StateSpace

    rules = reading(name)
    start = time.perf_counter()
    counts = StateSpace(rules).counts()
    counting = time.perf_counter() - start
    print(f"{name}: " + ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in counts.items()), flush=True)
    solution = solve(rules, progress=True, dtype=np.float32)
    print(f"{name}: expected score {solution.expected_score:.4f} in {solution.seconds:.1f} s, "
          f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    rss_values = peak_rss_mb()
    start = time.perf_counter()
    std = solution.std
    std_seconds = time.perf_counter() - start
    print(f"{name}: std {std:.4f} in {std_seconds:.1f} s, peak RSS {peak_rss_mb():.0f} MB", flush=True)
    out = {"rules": {"upper_bonus": rules.upper_bonus, "upper_bonus_threshold": rules.upper_bonus_threshold,
                     "n_dice": rules.n_dice, "rolls_per_turn": rules.rolls_per_turn,
                     "boxes": list(rules.box_names), "fingerprint": rules_fingerprint(rules)},
           "expected_score": round(solution.expected_score, 4), "std": round(std, 4),
           "counts": counts, "counting_seconds": round(counting, 1),
           "solve_seconds": round(solution.seconds, 1), "std_seconds": round(std_seconds, 1),
           "peak_rss_mb_values": round(rss_values), "peak_rss_mb_with_moments": round(peak_rss_mb()),
           "dtype": "float32", "values_sha256": values_sha256(solution)}
    solution.second = None                      # the moments are not needed by the games
    if games:
        out["simulation"] = sim = simulated(rules, solution, games)
        print(f"{name}: {games:,} optimal games average {sim['mean']:.2f} +- {sim['sem']:.2f} "
              f"(z = {sim['z']:+.2f}) in {sim['seconds']:.0f} s", flush=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reading", choices=READINGS, action="append",
                        help="solve only this reading (repeatable; default: both)")
    parser.add_argument("--games", type=int, default=GAMES,
                        help="optimal games per reading for the per-box averages (0: none)")
    parser.add_argument("--one", choices=READINGS, help=argparse.SUPPRESS)   # the child process:
    parser.add_argument("--to", type=Path, help=argparse.SUPPRESS)           # its numbers go here
    parser.add_argument("--out", type=Path, default=RESULT, help="the result file to write")
    args = parser.parse_args(argv)
    if args.one:
        args.to.write_text(json.dumps(run_reading(args.one, args.games)))
        return 0
    results, where = {}, machine()              # the load average before the solves
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.reading or READINGS:       # one at a time, each in a fresh process
            to = Path(tmp) / f"{name}.json"
            child = subprocess.run([sys.executable, __file__, "--one", name, "--games", str(args.games),
                                    "--to", str(to)], check=False)
            if child.returncode:
                return child.returncode
            results[name] = json.loads(to.read_text())
    record = {"package": "yatzy-core", "version": __version__,
              "command": "python benchmarks/maxi_yatzy.py" + (f" --games {args.games}" if args.games != GAMES else ""),
              "date": time.strftime("%Y-%m-%d"), "machine": where, "readings": results}
    record["sha256"] = hashlib.sha256(json.dumps(results, sort_keys=True).encode()).hexdigest()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
