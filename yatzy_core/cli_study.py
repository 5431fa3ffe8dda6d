"""`yatzy simulate` and `yatzy study`: the subcommands of the simulator and the strategy study.

Each is an `add_*_parser(subparsers)` function for `cli.SUBCOMMANDS`; the simulator and pandas
are imported only when the command runs, so other commands start as fast as before.
"""
from __future__ import annotations

import argparse

from .rules import rule_names


def _rules_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="yahtzee", metavar="NAME",
                        help=f"rule set: {', '.join(rule_names())} (default: yahtzee)")


def _check_games(n: int, flag: str) -> None:
    if n < 1:
        raise ValueError(f"{flag} must be at least 1, got {n}")


# ---- simulate ---------------------------------------------------------------------------------

def add_simulate_parser(subparsers) -> argparse.ArgumentParser:
    from .strategies import strategy_names
    p = subparsers.add_parser(
        "simulate", help="play seeded games with one strategy and print the summary table",
        description="Play N seeded games with one strategy; print mean, standard error, std, "
                    "min and max of every box, bonus and the total.")
    _rules_argument(p)
    p.add_argument("--strategy", default="optimal", metavar="NAME",
                   help=f"player: {', '.join(strategy_names())} (default: optimal)")
    p.add_argument("--games", type=int, default=10_000, metavar="N", help="(default 10000)")
    p.add_argument("--seed", type=int, default=0, help="(default 0)")
    p.add_argument("--csv", metavar="FILE", help="also write every game's row to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run_simulate)
    return p


def run_simulate(args) -> int:
    """Print the summary table (and write every game as CSV if asked)."""
    from .simulate import simulate, summary
    _check_games(args.games, "--games")
    frame = simulate(args.rules, args.strategy, games=args.games, seed=args.seed,
                     progress=not args.quiet)
    seconds = frame.attrs["seconds"]
    print(f"{args.strategy} on {args.rules}: {len(frame):,} games from seed {args.seed} "
          f"in {seconds:.1f} s ({len(frame) / seconds:,.0f} games/s)")
    print(summary(frame).round(2).to_string())
    if args.csv:
        frame.to_csv(args.csv)
        print(f"wrote {args.csv}")
    return 0


# ---- study ------------------------------------------------------------------------------------

def add_study_parser(subparsers) -> argparse.ArgumentParser:
    from .study import GAMES, SLOW_GAMES
    p = subparsers.add_parser(
        "study", help="compare every strategy on one rule set from seeded games",
        description="Play every strategy from the same seed; print games/s, mean, standard "
                    "error, std, min, max, then the average points of every box.")
    _rules_argument(p)
    p.add_argument("--games", type=int, default=GAMES, metavar="N",
                   help=f"games per fast strategy (default {GAMES})")
    p.add_argument("--slow-games", type=int, default=SLOW_GAMES, metavar="N",
                   help=f"games for mc_planner (default {SLOW_GAMES})")
    p.add_argument("--strategies", default=None, metavar="NAMES", help="comma separated (default: all)")
    p.add_argument("--seed", type=int, default=0, help="(default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=run_study)
    return p


def run_study(args) -> int:
    """Print the comparison table, then the per-box averages (boxes as rows)."""
    import pandas as pd

    from .study import STAT_COLUMNS, run_study as study_of
    _check_games(args.games, "--games")
    _check_games(args.slow_games, "--slow-games")
    names = [n.strip() for n in args.strategies.split(",")] if args.strategies else None
    study = study_of(args.rules, names, games=args.games, slow_games=args.slow_games,
                     seed=args.seed, progress=not args.quiet)
    table = study.table()
    seconds = study.seconds()
    table.insert(1, "games/s", [len(study.frames[n]) / seconds[n] for n in table.index])
    print(f"{study.rules.name}: every strategy from seed {args.seed}")
    with pd.option_context("display.width", 200, "display.max_columns", 40):
        print(table[["games", "games/s"] + STAT_COLUMNS[1:]].round(2).to_string())
        print("\naverage points per box")
        print(table.drop(columns=["games/s"] + STAT_COLUMNS).T.round(2).to_string())
    return 0
