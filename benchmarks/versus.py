"""Benchmark of issue 47 (not a test): two players, exactly. The compiled layer against the numpy
path (core-ns per (state, lead lane), one thread, median of 3, the ratio), then whole games
solved in this process with time and peak memory (the win/tie split compiled on every game, and
by the numpy path too on the two smallest), and the upper-bonus game on Dask with 1 and 2 worker
processes (wall time, each worker's CPU seconds, the load average by every figure: the machine's 2
cores are shared, and a worker waiting for a core makes its wall time longer than its CPU time);
writes results/versus.json (command, machine, load, a checksum of the readings).

    NUMBA_NUM_THREADS=1 PYTHONPATH=. python benchmarks/versus.py [--quick]

--quick: the rate and the smallest game only (a minute). The whole run: about 10 minutes on a
quiet machine (the compiled split, some 9x the value's time, on the three 5-box games only).
"""
import datetime
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

from yatzy_core.engine.compiled.layout import tables
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.targets import max_total, most_gain
from yatzy_core.objectives.two_player import LeadLanes, _after_turn, _distinct, _turn, solve_versus
from yatzy_core.objectives.versus_compiled import layer_ties, layer_turns, versus_split, versus_value
from yatzy_core.objectives.versus_plan import plan_versus
from yatzy_core.version import __version__
from results_file import write_result   # this folder's record writer (run as a script)

RESULT = Path(__file__).resolve().parents[1] / "results" / "versus.json"
BASE = get_rules("yahtzee-no-bonus")
BOXES = {b.name: b for b in BASE.boxes}


def game(names, threshold=63, bonus=0):
    """A game of some of Yahtzee's boxes (5 dice, 3 rolls), an upper bonus if asked."""
    return BASE.with_(name="+".join(names), boxes=tuple(BOXES[n] for n in names), upper_bonus=bonus,
                      upper_bonus_threshold=threshold, yahtzee_box="yahtzee" if "yahtzee" in names else None)


GAMES = [game(["ones", "twos", "threes", "three_of_a_kind", "chance"]),
         game(["fives", "sixes", "full_house", "large_straight", "chance"]),
         game(["ones", "twos", "threes", "full_house", "chance"], threshold=12, bonus=35),
         game(["fives", "sixes", "three_of_a_kind", "full_house", "small_straight", "large_straight",
               "chance"]),
         game(["sixes", "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
               "large_straight", "yahtzee", "chance"])]


def rate(rules, repeats=3):
    """CPU seconds per (mover state, lead lane) of the first player's first-turn layer's turns
    against every waiter of the layer before it (ka = 0 is tiny: the layer ka = 1 instead). Every
    lane of the width counts; the compiled layer works only the undecided ones (`layer_turns`
    with the waiter's most gain), so its rate per lane worked is higher than this figure."""
    space, settings, lanes = StateSpace(rules), tables(rules), LeadLanes(max_total(rules))
    leads = np.arange(lanes.width) - lanes.reach
    n = rules.n_boxes
    distinct = {k: _distinct(space, k) for k in range(n + 1)}
    ka, kb = n - 2, n - 1                           # the second player's second-last turn
    win = {(kb, ka + 1): (np.zeros((len(distinct[kb]), len(distinct[ka + 1]), lanes.width)),) * 2}
    movers = distinct[ka]
    later_w, later_t = _after_turn(space, win, distinct, ka, kb, 0, leads)
    rng = np.random.default_rng(47)
    later_w[space.layer(ka + 1)] = rng.random((len(space.layer(ka + 1)), lanes.width))
    ends = space.layer(ka + 1)
    waiter_gain = int(most_gain(space, distinct[kb][:1])[0])        # waiter number 0, as _after_turn's
    layer_turns(space, settings, movers, ends, later_w[ends], lanes, waiter_gain)     # compile
    layer_ties(space, settings, movers, ends, later_w[ends], later_t[ends], lanes, waiter_gain)
    times = {}
    for name, work in [("numpy", lambda: _turn(space, movers, later_w, later_t, lanes)),
                       ("compiled", lambda: layer_turns(space, settings, movers, ends, later_w[ends], lanes,
                                                         waiter_gain)),
                       ("compiled_tie", lambda: layer_ties(space, settings, movers, ends, later_w[ends],
                                                           later_t[ends], lanes, waiter_gain))]:
        cpu = []
        for _ in range(repeats):
            start = time.process_time()
            work()
            cpu.append(time.process_time() - start)
        times[name] = float(np.median(cpu)) / (len(movers) * lanes.width) * 1e9
    return {"rules": rules.name, "movers": int(len(movers)), "lanes": lanes.width,
            "numpy_core_ns": round(times["numpy"], 1), "compiled_core_ns": round(times["compiled"], 1),
            "ratio": round(times["numpy"] / times["compiled"], 1),
            "compiled_tie_core_ns": round(times["compiled_tie"], 1),
            "note": "numpy: values and the tie chance; compiled: values only; compiled_tie: the tie chance "
                    "(layer_ties, which works W again for its choices)"}


def solve(rules, numpy_too, split_too):
    plan = plan_versus(rules)
    start = time.perf_counter()
    value = versus_value(rules)
    took = time.perf_counter() - start
    reading = {"boxes": rules.n_boxes, "upper_bonus": rules.upper_bonus, "first": value,
               "compiled_seconds": round(took, 2), "open_values": plan.values, "load": round(os.getloadavg()[0], 1)}
    if split_too:
        start = time.perf_counter()
        split = versus_split(rules)
        reading.update(first_wins=round(split.first_wins, 12), tie=round(split.tie, 12),
                       second_wins=round(split.second_wins, 12),
                       compiled_split_seconds=round(time.perf_counter() - start, 2))
        assert abs(split.first - value) < 1e-12, (split.first, value)
    reading["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if numpy_too:
        exact = solve_versus(rules)
        assert abs(exact.first - value) < 1e-12, (exact.first, value)
        assert abs(exact.tie - split.tie) < 1e-12, (exact.tie, split.tie)
        reading.update(numpy_seconds=round(exact.seconds, 2))
    print(rules.name, reading, flush=True)
    return reading


def _dask_run(rules, client, split):
    """One run on a fresh store: (wall seconds, each worker's CPU seconds, the run)."""
    import tempfile
    from yatzy_core.objectives.versus_dask import solve_versus_dask
    with tempfile.TemporaryDirectory() as folder:
        before = client.run(time.process_time)
        start = time.perf_counter()
        run = solve_versus_dask(rules, folder + "/layers.zarr", client=client, split=split)
        wall = time.perf_counter() - start
        after = client.run(time.process_time)
    return wall, sorted(after[w] - before[w] for w in before), run


def dask_scaling(rules, first, repeats=3):
    """The same game on a LocalCluster of 1 and of 2 worker processes (fresh stores; a first run
    warms each worker: its rule set's tables, the kernels read from numba's cache): the value
    alone `repeats` times (medians of the wall time and of the busiest worker's CPU seconds) and
    once with the split, the load average by each; every value equal to the single-process one
    bit for bit, the 1- and 2-worker splits equal to each other bit for bit."""
    from yatzy_core.objectives.versus_dask import close_client, local_client
    out, ties = {}, []
    for workers in (1, 2):
        client = local_client(workers)
        try:
            _dask_run(rules, client, False)                        # warm the workers
            runs = [_dask_run(rules, client, False) for _ in range(repeats)]
            load = round(os.getloadavg()[0], 1)
            wall, cpu, run = _dask_run(rules, client, True)
            out[f"{workers}_workers"] = {
                "value_seconds_median": round(float(np.median([r[0] for r in runs])), 2),
                "value_busiest_worker_cpu_seconds_median": round(float(np.median([r[1][-1] for r in runs])), 2),
                "value_all_workers_cpu_seconds_median": round(float(np.median([sum(r[1]) for r in runs])), 2),
                "value_load": load,
                "split_seconds": round(wall, 2), "split_worker_cpu_seconds": [round(c, 2) for c in cpu],
                "split_load": round(os.getloadavg()[0], 1)}
        finally:
            close_client(client)
        assert all(r[2].first == first for r in runs) and run.first == first, (run.first, first)
        ties.append((run.first_wins, run.tie, run.second_wins))
        print(rules.name, "on Dask", workers, out[f"{workers}_workers"], flush=True)
    assert ties[0] == ties[1], ties
    one, two = out["1_workers"], out["2_workers"]
    out["value_speedup"] = round(one["value_seconds_median"] / two["value_seconds_median"], 2)
    out["value_cpu_speedup"] = round(one["value_busiest_worker_cpu_seconds_median"]
                                     / two["value_busiest_worker_cpu_seconds_median"], 2)
    out["note"] = ("cpu_speedup: the 1-worker CPU seconds over the busiest of 2 workers', the speed-up "
                   "with a free core per worker; the wall-time speed-up is what the shared machine gave")
    out["bit_identical_to_one_process"] = True
    out["split_bit_identical_1_and_2_workers"] = True
    return out


def main(argv):
    quick = "--quick" in argv
    readings = {"rate": rate(GAMES[0] if quick else GAMES[1])}
    print("rate", readings["rate"], flush=True)
    for i, rules in enumerate(GAMES[:1] if quick else GAMES):
        readings[rules.name] = solve(rules, numpy_too=i < 2, split_too=i < 3)
    if not quick:
        readings["dask"] = {GAMES[2].name: dask_scaling(GAMES[2], readings[GAMES[2].name]["first"])}
    record = {"command": "NUMBA_NUM_THREADS=%s python benchmarks/versus.py %s" % (
                  os.environ.get("NUMBA_NUM_THREADS", ""), " ".join(argv)),
              "version": __version__, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores".strip(),
              "load": round(os.getloadavg()[0], 1), "readings": readings}
    if not quick:
        write_result(RESULT, record)
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
