"""Maxi Yatzy as played (6 dice, 20 boxes, bonus 100 at 84, saved rolls) solved exactly.

Run by hand on a quiet machine (never in CI), under /usr/bin/time -v for the peak RSS too:

    /usr/bin/time -v .venv/bin/python benchmarks/maxi_saved_rolls.py
    .venv/bin/python benchmarks/maxi_saved_rolls.py --ratio     # only the work ratio (a minute)

It counts the states (turn states x the saved counts each can hold), measures on a smaller
variant (the first 12 boxes of the card) how far float32 tables move the expected score from a
float64 solve (1.5e-5 there: above the 1e-6 bar, since a float32 near 263 is itself only good to
about 1e-5), so it solves the whole game in float64 tables, keeping only the first layers (two
layers are held at a time: 5.3 GB at the largest), and writes results/maxi-yatzy.json: the command, the machine, the
time, the peak RSS, the value of the saving rule (against results/maxi-yatzy-no-saved-rolls.json)
and sha256s of the first layers' values and of the readings. A values run keeps the optimal
games below and the exact std (readings["maxi-yatzy"]["std"], written from the output of
`nice -n 19 yatzy solve --rules maxi-yatzy --std --checkpoint DIR`, hours) when its value is unchanged.

Optimal games (--play): every layer kept, in float32 tables (7.5 GB; float64 would be 15 GB): a
float32 value is within about 1e-5 points of the float64 one (the float32 check above), so the
policy's choices are optimal to about 1e-5 points; then GAMES seeded games (`play_saved`), their
mean against the solved value in standard errors, the rolls banked over the game, the time and
the peak RSS, added to results/maxi-yatzy.json as readings["maxi-yatzy"]["optimal_games"]:

    nice -n 10 /usr/bin/time -v .venv/bin/python benchmarks/maxi_saved_rolls.py --play 10000
    .venv/bin/python benchmarks/maxi_saved_rolls.py --play 200 --boxes 8   # a check: prints only

The work ratio (--ratio, also in a full run): the first 14 boxes of the card solved without saved
rolls (the baseline, `solver.solve`) and with them, in this process, against the model: a state
with k boxes used runs 3 + 2k stages instead of 3, weighted by the distinct states of each layer.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

from maxi_yatzy import machine, peak_rss_mb     # the sibling script's figures of the machine

from yatzy_core.engine.cache import rules_fingerprint
from yatzy_core.engine.saved import most_saved, solve_saved
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace
from yatzy_core.players.saved_play import play_saved
from yatzy_core.version import __version__

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "results" / "maxi-yatzy.json"
NO_SAVED = ROOT / "results" / "maxi-yatzy-no-saved-rolls.json"
KEEP = 2        # layers kept (boxes used <= 2) for the checksum and the first turns' values
BAR = 1e-6      # float32 tables must keep the expected score this close to float64


def counts(rules) -> dict:
    """Turn states, the reachable ones, and those times the saved counts each can hold."""
    space = StateSpace(rules)
    reach = space.reachable.reshape(1 << rules.n_boxes, -1).sum(axis=1)
    saved = most_saved(rules, space.boxes_used) + 1
    return {"turn_states": space.size, "reachable_turn_states": int(reach.sum()),
            "reachable_states_with_saved_counts": int((reach * saved).sum())}


def float32_check() -> dict:
    """The 1e-6 bar on a 12-box variant: float32 tables against float64 (reported, not assumed)."""
    maxi = get_rules("maxi-yatzy")
    small = maxi.with_(name="maxi-first-12", boxes=maxi.boxes[:12])
    wide = solve_saved(small, progress=False, keep=0).expected_score
    narrow = solve_saved(small, progress=False, dtype=np.float32, keep=0).expected_score
    return {"rules": "maxi-yatzy, first 12 boxes", "float64": round(wide, 9), "float32": round(narrow, 9),
            "difference": float(f"{abs(wide - narrow):.3g}"), "within_1e-6": bool(abs(wide - narrow) <= BAR)}


def work_ratio(n_boxes: int = 14) -> dict:
    """Seconds with and without saved rolls on the first n_boxes of the card, measured ratio
    against the model sum_k distinct_k (3 + 2k) / (3 sum_k distinct_k)."""
    from yatzy_core.engine.solver import solve

    maxi = get_rules("maxi-yatzy")
    small = maxi.with_(name=f"maxi-first-{n_boxes}", boxes=maxi.boxes[:n_boxes])
    plain = small.with_(saved_rolls=False)
    solve(plain.with_(boxes=plain.boxes[:2]), progress=False)            # compile both kernels first
    solve_saved(small.with_(boxes=small.boxes[:2]), progress=False)
    start = time.perf_counter()
    solve(plain, progress=False)
    base = time.perf_counter() - start
    start = time.perf_counter()
    solve_saved(small, progress=False, keep=0)
    with_saved = time.perf_counter() - start
    space = StateSpace(small)
    distinct = [sum(int((space.representatives(b) == b).sum()) for b in space.layer_blocks(k, 1 << 20))
                for k in range(n_boxes)]
    model = sum(d * (3 + 2 * k) for k, d in enumerate(distinct)) / (3 * sum(distinct))
    return {"rules": f"maxi-yatzy, first {n_boxes} boxes", "seconds_without_saved_rolls": round(base, 2),
            "seconds_with_saved_rolls": round(with_saved, 2), "measured_ratio": round(with_saved / base, 2),
            "model_ratio": round(model, 2)}


def layer_sha256(solution) -> str:
    """sha256 of the kept layers' values (rounded to little-endian float32)."""
    h = hashlib.sha256()
    for layer in solution.layers[:KEEP + 1]:
        h.update(np.ascontiguousarray(layer, dtype="<f4").tobytes())
    return h.hexdigest()


def optimal_games(games: int, n_boxes: int, seed: int = 2026) -> dict:
    """Solve every layer in float32 and play `games` seeded optimal games: the mean with its
    standard error, the z-score against the solved value (float64, results/maxi-yatzy.json, for
    the whole card; the float32 solve's own value for a shorter card), the rolls banked."""
    maxi = get_rules("maxi-yatzy")
    rules = maxi if n_boxes == maxi.n_boxes else maxi.with_(name=f"maxi-first-{n_boxes}",
                                                           boxes=maxi.boxes[:n_boxes])
    solution = solve_saved(rules, progress=True, dtype=np.float32, keep=None)
    print(f"solved every layer in float32: {solution.expected_score:.4f} in {solution.seconds:.1f} s, "
          f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    start = time.perf_counter()
    played = play_saved(solution, games, seed=seed)
    seconds = time.perf_counter() - start
    totals = played.frame["total"].to_numpy(dtype=np.float64)
    mean, se = totals.mean(), totals.std(ddof=1) / np.sqrt(games)
    solved = (json.loads(RESULT.read_text())["readings"]["maxi-yatzy"]["expected_score"]
              if rules is maxi else round(solution.expected_score, 4))
    banked = played.saved.mean(axis=0)
    out = {"games": games, "seed": seed, "dtype": "float32", "mean": round(mean, 4), "standard_error": round(se, 4),
           "solved_value": solved, "z": round((mean - solved) / se, 2),
           "mean_saved_at_turn_start": [round(float(b), 3) for b in banked[:-1]],
           "mean_saved_at_end": round(float(banked[-1]), 3), "most_saved": int(played.saved.max()),
           "solve_seconds": round(solution.seconds, 1), "play_seconds": round(seconds, 1),
           "peak_rss_mb": round(peak_rss_mb())}
    print(f"{games:,} optimal games: mean {mean:.4f} +- {se:.4f} (SE), solved {solved}, z = {out['z']:+.2f}; "
          f"rolls banked at the end {out['mean_saved_at_end']} on average, at most {out['most_saved']}; "
          f"played in {seconds:.1f} s, peak RSS {peak_rss_mb():.0f} MB", flush=True)
    print("mean rolls saved at the start of each turn:", out["mean_saved_at_turn_start"], flush=True)
    return out


def add_games(games: dict) -> None:
    """Add the games to results/maxi-yatzy.json; the checksum is over the readings as before."""
    record = json.loads(RESULT.read_text())
    record["readings"]["maxi-yatzy"]["optimal_games"] = games
    record["sha256"] = hashlib.sha256(json.dumps(record["readings"], sort_keys=True).encode()).hexdigest()
    record["optimal_games_command"] = "nice -n 10 python benchmarks/maxi_saved_rolls.py --play " + str(games["games"])
    RESULT.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {RESULT.relative_to(ROOT)}")


def _games_kept(reading: dict) -> dict:
    """What a values run keeps of the last record: its optimal games and its exact std (hours
    of playing and of `yatzy solve --std` are not redone) when made on the same solved value."""
    if not RESULT.exists():
        return {}
    last = json.loads(RESULT.read_text())
    before = last["readings"]["maxi-yatzy"]
    if before["expected_score"] != reading["expected_score"]:
        return {}
    return {"readings": {k: before[k] for k in ("optimal_games", "std") if k in before},
            **{k: last[k] for k in ("optimal_games_command", "optimal_games_measured_with") if k in last}}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ratio", action="store_true", help="only measure the work ratio and print it")
    parser.add_argument("--play", type=int, metavar="GAMES", help="solve every layer in float32 and play GAMES games")
    parser.add_argument("--boxes", type=int, default=20, help="with --play: the first BOXES boxes of the card "
                        "(fewer than 20: printed, not written)")
    args = parser.parse_args(argv)
    if args.ratio:
        print(json.dumps(work_ratio(), indent=2))
        return 0
    if args.play is not None:
        if args.play < 2 or not 1 <= args.boxes <= 20:
            parser.error("--play needs at least 2 games and --boxes 1..20")
        games = optimal_games(args.play, args.boxes)
        if args.boxes == 20:
            add_games(games)
        return 0
    rules = get_rules("maxi-yatzy")
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    where = machine()
    states = counts(rules)
    print("states:", ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in states.items()), flush=True)
    check = float32_check()
    print(f"float32 check: {check}", flush=True)
    ratio = work_ratio()
    print(f"work ratio: {ratio}", flush=True)
    dtype = np.float32 if check["within_1e-6"] else np.float64
    solution = solve_saved(rules, progress=True, dtype=dtype, keep=KEEP)
    no_saved = json.loads(NO_SAVED.read_text())["readings"]["maxi-yatzy-no-saved-rolls"]["expected_score"]
    first_turn = [round(solution.value(0, saved=0), 4)]
    reading = {"rules": {"upper_bonus": rules.upper_bonus, "upper_bonus_threshold": rules.upper_bonus_threshold,
                         "n_dice": rules.n_dice, "rolls_per_turn": rules.rolls_per_turn,
                         "saved_rolls": rules.saved_rolls, "boxes": list(rules.box_names),
                         "fingerprint": rules_fingerprint(rules)},
               "expected_score": round(solution.expected_score, 4),
               "value_of_saving_rolls": round(solution.expected_score - no_saved, 4),
               "counts": states, "solve_seconds": round(solution.seconds, 1),
               "peak_rss_mb": round(peak_rss_mb()), "dtype": np.dtype(dtype).name, "float32_check": check,
               "kept_layers_sha256": layer_sha256(solution), "start": first_turn,
               "work_ratio": ratio}
    print(f"expected score {solution.expected_score:.4f} (saving rolls is worth "
          f"{reading['value_of_saving_rolls']:+.4f}) in {solution.seconds:.1f} s, "
          f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    readings = {"maxi-yatzy": reading}
    record = {"package": "yatzy-core", "version": __version__,
              "command": "python benchmarks/maxi_saved_rolls.py", "date": started, "machine": where}
    kept = _games_kept(reading)
    readings["maxi-yatzy"].update(kept.pop("readings", {}))
    record.update(readings=readings,
                  sha256=hashlib.sha256(json.dumps(readings, sort_keys=True).encode()).hexdigest(), **kept)
    RESULT.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {RESULT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
