"""The exact std of a saved-roll game: what the second moments cost against the values alone.

Run by hand (never in CI):

    .venv/bin/python benchmarks/saved_std.py              # the first 14 boxes of Maxi Yatzy
    .venv/bin/python benchmarks/saved_std.py --boxes 12

Both solves run in this process on the same card (the first BOXES boxes of `maxi-yatzy`, saved
rolls, two layers held at a time as `yatzy solve` does), after a warm-up that compiles both
kernels; it prints each time (best of --repeat), the ratio moments / values (the baseline), the
expected score and the std. The whole Maxi Yatzy std is this ratio times its values solve
(results/maxi-yatzy.json) with twice its tables (`saved.saved_memory(..., moments=True)`).
"""
from __future__ import annotations

import argparse
import time

from yatzy_core.engine.saved import saved_memory, solve_saved
from yatzy_core.game.rules import get_rules


def card(boxes: int):
    """The first `boxes` boxes of the Maxi Yatzy card, saved rolls and bonus as played."""
    maxi = get_rules("maxi-yatzy")
    return maxi.with_(name=f"maxi-yatzy-first-{boxes}", boxes=maxi.boxes[:boxes])


def best_time(rules, moments: bool, repeat: int):
    """(wall seconds, CPU seconds, solution): the best of `repeat` solves (CPU time counts every
    thread, and moves less than wall time on a shared machine)."""
    times, solution = [], None
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        solution = solve_saved(rules, progress=False, keep=0, moments=moments)
        times.append((time.perf_counter() - start, time.process_time() - cpu))
    return (*min(times), solution)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=14)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for moments in (False, True):                 # compile both kernels first
        solve_saved(card(3), progress=False, moments=moments)
    rules = card(args.boxes)
    values, values_cpu, plain = best_time(rules, False, args.repeat)
    both, both_cpu, spread = best_time(rules, True, args.repeat)
    assert spread.expected_score == plain.expected_score
    print(f"{rules.name}: expected score {plain.expected_score:.4f}, std {spread.std:.4f}")
    print(f"values solve {values:.2f} s, {values_cpu:.2f} s CPU (baseline); with second moments "
          f"{both:.2f} s, {both_cpu:.2f} s CPU: ratio {both / values:.2f} ({both_cpu / values_cpu:.2f} in CPU time)")
    maxi = get_rules("maxi-yatzy")
    print(f"maxi-yatzy with moments needs about {saved_memory(maxi, keep=0, moments=True) / 1e9:.1f} GB "
          f"(values alone {saved_memory(maxi, keep=0) / 1e9:.1f} GB)")


if __name__ == "__main__":
    main()
