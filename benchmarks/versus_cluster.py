"""Benchmark of issue 47 (not a test): a mid-size two-player game on the LocalCluster, the value
and its split into wins and ties, with its wall time, each worker's CPU seconds and peak memory,
the client's peak memory and the store's size on disk; writes results/versus_cluster.json
(command, machine, load, a checksum of the readings).

    PYTHONPATH=. python benchmarks/versus_cluster.py [--workers 2] [--store DIR]

The game: six of Yahtzee's boxes with an upper bonus (ones to fours, full house, chance; 35 points
at 20 in the upper boxes), chosen with `yatzy versus plan` as the largest with a bonus whose
split fits some 10 minutes of this shared 2-core machine (16e6 open values; a 7-box bonus game
has 1e8). Its store is removed at the end unless --store names one.
"""

import datetime
import os
import platform
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from yatzy_core.objectives.versus_plan import plan_versus
from yatzy_core.version import __version__
from results_file import write_result   # this folder's record writer (run as a script)
from versus import game                 # this folder's games

RESULT = Path(__file__).resolve().parents[1] / "results" / "versus_cluster.json"
GAME = game(["ones", "twos", "threes", "fours", "full_house", "chance"], threshold=20, bonus=35)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _folder_bytes(folder: str) -> int:
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def main(argv):
    from yatzy_core.objectives.versus_dask import close_client, local_client, solve_versus_dask

    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 2
    keep = argv[argv.index("--store") + 1] if "--store" in argv else None
    plan = plan_versus(GAME)
    print(f"{GAME.name}: {plan.values:,} open values, largest layer {plan.largest_layer:,} "
          f"open values, {plan.dense * 8 / 1e6:.0f} MB dense float64 stored, {workers} workers", flush=True)
    folder = keep or tempfile.mkdtemp(prefix="versus-cluster-")
    load_before = round(os.getloadavg()[0], 1)
    client = local_client(workers)
    try:
        before = client.run(time.process_time)
        start = time.perf_counter()
        run = solve_versus_dask(GAME, folder + "/layers.zarr", client=client, progress=True)
        wall = time.perf_counter() - start
        after = client.run(time.process_time)
        worker_rss = client.run(_peak_rss_mb)
        stored = _folder_bytes(folder)
    finally:
        close_client(client)
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    readings = {"rules": GAME.name, "boxes": GAME.n_boxes, "upper_bonus": GAME.upper_bonus,
                "upper_bonus_threshold": GAME.upper_bonus_threshold, "workers": workers,
                "open_values": plan.values, "dense_values": plan.dense,
                "first": run.first, "first_wins": run.first_wins, "tie": run.tie, "second_wins": run.second_wins,
                "seconds": round(wall, 1),
                "worker_cpu_seconds": sorted(round(after[w] - before[w], 1) for w in before),
                "worker_peak_rss_mb": sorted(round(v) for v in worker_rss.values()),
                "client_peak_rss_mb": round(_peak_rss_mb()),
                "store_bytes": stored, "load_before": load_before, "load_after": round(os.getloadavg()[0], 1)}
    record = {"command": "PYTHONPATH=. python benchmarks/versus_cluster.py " + " ".join(argv),
              "version": __version__,
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores".strip(),
              "load": readings["load_after"], "readings": readings}
    write_result(RESULT, record)
    print(readings, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
