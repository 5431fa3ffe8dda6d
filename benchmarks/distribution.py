"""Exact distributions of optimal play for every rule set: time, peak memory, and the check
against a million simulated games.

Run by hand: `.venv/bin/python benchmarks/distribution.py [--rules NAME ...] [--games N] [--ties]
[--baseline NAME]`. Each rule set runs in a fresh process so its peak memory is its own (the
values come from the cache, solved first if absent, and are not timed). Per rule set it prints the
compiled forward pass's time and peak resident memory (and the process's before it: Python, numpy,
numba and the values; the cached compiled code is loaded inside the timed pass), the per-box expectations (yahtzee-no-bonus also
beside the published table), the bonus probabilities, mean, standard deviation (against the
solver's, and with --ties the range over all tie-breaks), quantiles and tails, and a KS and a
chi-square test of N simulated optimal games (seeded) against the exact distribution.
The baseline (benchmarks/numpy_forward.py: the numpy turn outcomes and dense rows the pass used
before) runs on one rule set, in a fresh process too (30 s and 1.5 GB for yahtzee); its pmf is
checked against the compiled one. Target (issue 9): <= 5 s and <= 300 MB for yatzy and yahtzee.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from yatzy_core.game.rules import rule_names

SEED = 20240601
PUBLISHED_NO_BONUS = {
    "ones": 1.82, "twos": 5.25, "threes": 8.57, "fours": 12.19, "fives": 15.74, "sixes": 19.29,
    "upper_bonus": 24.14, "three_of_a_kind": 22.23, "four_of_a_kind": 13.04, "full_house": 22.86,
    "small_straight": 29.53, "large_straight": 33.04, "yahtzee": 15.89, "chance": 22.26,
    "total": 245.87,
}


def chi_square(probabilities: np.ndarray, samples: np.ndarray, min_expected: float = 20.0):
    """Pearson chi-square over adjacent scores merged until each bin expects >= min_expected."""
    n = len(samples)
    observed = np.bincount(samples, minlength=len(probabilities)).astype(float)
    edges, acc = [], 0.0
    for x, p in enumerate(probabilities):
        acc += p * n
        if acc >= min_expected:
            edges.append(x + 1)
            acc = 0.0
    edges[-1] = len(probabilities)                      # the last bin takes the tail
    starts = np.r_[0, edges[:-1]]
    expected = np.add.reduceat(probabilities * n, starts)
    seen = np.add.reduceat(observed, starts)
    statistic = float(((seen - expected) ** 2 / expected).sum())
    dof = len(expected) - 1
    try:
        from scipy.stats import chi2
        p = float(chi2.sf(statistic, dof))
    except ImportError:  # scipy is not a dependency: report the statistic only
        p = float("nan")
    return statistic, dof, p


def one(name: str, games: int, ties: bool) -> dict:
    """Everything for one rule set, in this (fresh) process."""
    from yatzy_core.engine.cache import get_solution
    from yatzy_core.objectives.distribution import forward, ks_test, play_path, save_play
    from yatzy_core.engine.turn_forward import second_moments

    from yatzy_core.objectives.distribution import peak_rss_mb

    solution = get_solution(name, progress=False)
    rss_before = peak_rss_mb()
    play = forward(solution, distribution=True)
    save_play(play, play_path(solution.rules))
    d = play.distribution
    out = {
        "rules": name, "seconds": play.stats["seconds"], "rss_before_mb": rss_before,
        "peak_rss_mb": play.stats["peak_rss_mb"], "pmf": d.probabilities, "peak_rows_mb": play.stats["peak_dist_mb"],
        "states_visited": play.stats["states_visited"],
        "reachable_states": int(solution.space.reachable.sum()),
        "widest_row": play.stats["widest_row"], "boxes": play.box_expectations,
        "bonus_probabilities": play.bonus_probabilities, "solver_mean": solution.expected_score,
        "mean": d.mean, "std": d.std, "solver_std": solution.std,
        "max_score": d.max_score,
        "quantiles": {q: d.quantile(q) for q in (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)},
        "p_at_least": {x: d.p_at_least(x) for x in (200, 250, 300)},
    }
    if ties:
        start = time.perf_counter()
        s = solution.space.index(0, 0, 0)
        out["std_rule_backward"], out["std_min"], out["std_max"] = (
            float(np.sqrt(second_moments(solution, t)[s] - d.mean ** 2)) for t in ("rule", "min", "max"))
        out["ties_seconds"] = time.perf_counter() - start
    if games:
        from yatzy_core.players.simulation import simulate
        start = time.perf_counter()
        totals = simulate(name, "optimal", games=games, seed=SEED, progress=False)["total"].to_numpy()
        out["simulation"] = {
            "games": games, "seed": SEED, "seconds": time.perf_counter() - start,
            "mean": float(totals.mean()), "std": float(totals.std(ddof=1)),
            "ks": ks_test(d.probabilities, totals), "chi_square": chi_square(d.probabilities, totals)}
    return out


def baseline(name: str) -> dict:
    """The numpy forward pass (benchmarks/numpy_forward.py), in this (fresh) process."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from numpy_forward import numpy_forward

    from yatzy_core.engine.cache import get_solution
    from yatzy_core.objectives.distribution import peak_rss_mb
    solution = get_solution(name, progress=False)
    start = time.perf_counter()
    pmf = numpy_forward(solution)
    return {"seconds": time.perf_counter() - start, "peak_rss_mb": peak_rss_mb(), "pmf": pmf}


def report(r: dict) -> None:
    print(f"\n## {r['rules']}")
    print(f"forward pass {r['seconds']:.2f} s, peak RSS {r['peak_rss_mb']:.0f} MiB ("
          f"{r['rss_before_mb']:.0f} MiB before it; two layers of rows {r['peak_rows_mb']:.0f} MiB); "
          f"{r['states_visited']} of {r['reachable_states']} reachable states pushed (positive "
          f"probability, representatives only); rows up to {r['widest_row']} points wide")
    if "baseline" in r:
        b = r["baseline"]
        print(f"numpy baseline {b['seconds']:.1f} s, peak RSS {b['peak_rss_mb']:.0f} MiB: compiled "
              f"{b['seconds'] / r['seconds']:.1f}x faster, {b['peak_rss_mb'] / r['peak_rss_mb']:.1f}x "
              f"less memory; pmfs differ by at most {b['max_difference']:.1e}")
    published = PUBLISHED_NO_BONUS if r["rules"] == "yahtzee-no-bonus" else {}
    for box, value in r["boxes"].items():
        extra = f"   published {published[box]:.2f}" if box in published else ""
        print(f"  {box:16s} {value:9.4f}{extra}")
    print("  P(upper bonus) = {upper_bonus:.6f}, P(n of a kind scored) = {n_of_a_kind:.6f}"
          .format(**r["bonus_probabilities"]))
    print(f"  mean {r['mean']:.6f} (solver {r['solver_mean']:.6f}, diff {r['mean'] - r['solver_mean']:.1e});"
          f" std {r['std']:.6f} (solver {r['solver_std']:.6f})")
    if "std_min" in r:
        print(f"  std by backward recursion with the same tie rule {r['std_rule_backward']:.9f}; over"
              f" all tie-breaks between {r['std_min']:.6f} and {r['std_max']:.6f} ({r['ties_seconds']:.0f} s)")
    print("  quantiles " + ", ".join(f"{q:g}: {x}" for q, x in r["quantiles"].items()) +
          f"; max {r['max_score']}")
    print("  " + ", ".join(f"P(>= {x}) = {p:.6f}" for x, p in r["p_at_least"].items()))
    if "simulation" in r:
        s = r["simulation"]
        print(f"  {s['games']} simulated games (seed {s['seed']}, {s['seconds']:.0f} s): mean {s['mean']:.4f}"
              f" std {s['std']:.4f}; KS D = {s['ks'][0]:.5f} p = {s['ks'][1]:.3f}; chi-square"
              f" {s['chi_square'][0]:.1f} on {s['chi_square'][1]} dof, p = {s['chi_square'][2]:.3f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=rule_names())
    parser.add_argument("--games", type=int, default=1_000_000, help="simulated games (0: none)")
    parser.add_argument("--ties", action="store_true", help="also the std range over tie-breaks")
    parser.add_argument("--json", help="write the results here too")
    parser.add_argument("--baseline", default="yahtzee", metavar="NAME",
                        help="rule set to time the numpy baseline on ('none': skip)")
    args = parser.parse_args(argv)
    results = []
    ctx = mp.get_context("spawn")
    for name in args.rules:
        with ProcessPoolExecutor(1, mp_context=ctx) as pool:   # a fresh process: its own peak memory
            r = pool.submit(one, name, args.games, args.ties).result()
        if name == args.baseline:
            with ProcessPoolExecutor(1, mp_context=ctx) as pool:
                b = pool.submit(baseline, name).result()
            bp, rp = b.pop("pmf"), r["pmf"]
            n = max(len(bp), len(rp))
            b["max_difference"] = float(np.abs(np.pad(bp, (0, n - len(bp))) - np.pad(rp, (0, n - len(rp)))).max())
            r["baseline"] = b
        report(r)
        r.pop("pmf")
        results.append(r)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
