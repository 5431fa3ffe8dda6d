"""Benchmark of issue 47 item 4 (not a test): the endgame tables of the real games. Each rule set's
`yatzy versus endgame --rules R --json` runs in a fresh process with an empty cache folder (so every
layer is built), timed: wall and CPU seconds, peak memory, values and bytes on disk per layer; then
one `yatzy versus advise` of a (2, 2) position in a fresh process (reading the (2, 1) layer from
the cache). Writes results/endgame.json (command, machine, load, a checksum of the readings).

    PYTHONPATH=. python benchmarks/endgame.py [RULES ...] [--cache DIR]

Default: yahtzee-no-bonus, yatzy, yahtzee (about 4 minutes on a quiet 2-core machine; 10-15 on a
loaded one). --cache keeps the built tables there (default: a temporary folder, removed after).
"""
import datetime
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from yatzy_core.version import __version__
from results_file import write_result   # this folder's record writer (run as a script)

ROOT = Path(__file__).resolve().parents[1]
RULES = ["yahtzee-no-bonus", "yatzy", "yahtzee"]
# a (2, 2) position of each game: both players with two boxes open, the mover 10 points behind
LATE = {"yahtzee-no-bonus": ("sixes,yahtzee", "chance,yahtzee", "66654"),
        "yahtzee": ("sixes,yahtzee", "chance,yahtzee", "66654"),
        "yatzy": ("sixes,yatzy", "chance,yatzy", "66654")}


def _run(argv, cache):
    env = dict(os.environ, YATZY_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "yatzy_core", *argv], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()[-500:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return done.stdout, round(wall, 2), round(cpu, 2)


def measure(rules: str, cache: Path) -> dict:
    print(f"{rules}: building the endgame tables (both players with at most 2 boxes open) ...", flush=True)
    out, wall, cpu = _run(["versus", "endgame", "--rules", rules, "--json"], cache)
    built = json.loads(out)
    mine, theirs, dice = LATE[rules]
    boxes = [b for b in _box_names(rules) if b not in mine.split(",")]
    advice, advise_wall, _ = _run(["versus", "advise", "--rules", rules, "--dice", dice, "--used", ",".join(boxes),
                                   "--versus", f"open={theirs}", "--lead", "-10", "--json", "--top", "3"], cache)
    reading = {"values": built["values"], "wall_seconds": wall, "cpu_seconds": cpu,
               "peak_rss_gb": round(built["peak_rss_bytes"] / 1e9, 2),
               "disk_bytes": sum(layer["file_bytes"] for layer in built["layers"]),
               "float64_bytes": built["values"] * 8,
               "layers": [{k: layer[k] for k in ("layer", "values", "seconds", "file_bytes")} for layer in built["layers"]],
               "advise_2_2": {"mover_open": mine, "opponent_open": theirs, "dice": dice, "lead": -10,
                              "wall_seconds_fresh_process": advise_wall, "top": json.loads(advice)}}
    print(json.dumps(reading, indent=1), flush=True)
    return reading


def _box_names(rules: str):
    from yatzy_core.game.rules import get_rules
    return get_rules(rules).box_names


def main() -> None:
    argv = sys.argv[1:]
    command = "PYTHONPATH=. python benchmarks/endgame.py " + " ".join(argv)
    keep = None
    if "--cache" in argv:
        keep = Path(argv[argv.index("--cache") + 1])
        del argv[argv.index("--cache"):argv.index("--cache") + 2]
    cache = keep or Path(tempfile.mkdtemp(prefix="endgame-"))
    try:
        readings = {rules: measure(rules, cache) for rules in (argv or RULES)}
    finally:
        if keep is None:
            shutil.rmtree(cache, ignore_errors=True)
    record = {"command": command.strip(), "version": __version__,
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()} {platform.processor()} {os.cpu_count()} cores",
              "load": round(os.getloadavg()[0], 1),
              "budget": "DECISIONS: at most 30 minutes and 16 GB a rule set on one 2-core machine",
              "readings": readings}
    write_result(ROOT / "results" / "endgame.json", record)


if __name__ == "__main__":
    main()
