"""`yatzy simulate` and `yatzy study`: the subcommands of the simulator and the strategy study.

Each is an `add_*_parser(subparsers)` function for `command.SUBCOMMANDS`; the simulator and pandas
are imported only when the command runs, so other commands start as fast as before.
"""
from __future__ import annotations

import argparse
import sys

from .args import OutputFile, path, printable, short, rules_argument, strategy_list, strategy_name, whole
from ..engine.position import counted
from ..players.batch import MAX_GAMES

__all__ = ["add_simulate_parser", "add_study_parser"]

GAMES_ARG = whole(1, MAX_GAMES, " (each game's card is kept in memory; run several seeds for more)")


# ---- simulate ---------------------------------------------------------------------------------

def add_simulate_parser(subparsers) -> argparse.ArgumentParser:
    from ..players.registry import strategy_names
    p = subparsers.add_parser(
        "simulate", help="play seeded games with one strategy and print the summary table",
        description="Play N seeded games with one strategy; print mean, standard error, std, "
                    "min and max of every box, bonus and the total.")
    rules_argument(p)
    p.add_argument("--strategy", default="optimal", metavar="NAME", type=strategy_name,
                   help=f"player: {', '.join(strategy_names())} (default: optimal)")
    p.add_argument("--games", type=GAMES_ARG, default=10_000, metavar="N",
                   help=f"(default 10000, at most {MAX_GAMES:,})")
    p.add_argument("--seed", type=whole(0), default=0, help="(default 0)")
    p.add_argument("--csv", metavar="FILE", type=path,
                   help="also write every game's row to FILE (checked before the games are played)")
    p.add_argument("--force", action="store_true", help="let --csv overwrite an existing FILE")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run_simulate)
    return p


def run_simulate(args) -> int:
    """Print the summary table (and write every game as CSV if asked: its file is checked
    first, so a bad path never costs a finished simulation)."""
    from ..players.simulation import simulate, summary
    out = OutputFile.open(args.csv, args.force) if args.csv is not None else None
    try:
        frame = simulate(args.rules, args.strategy, games=args.games, seed=args.seed,
                         progress=not args.quiet)
        seconds = frame.attrs["seconds"]
        print(f"{args.strategy} on {printable(frame.attrs['rules'])}: {counted(len(frame), 'game')} from seed {args.seed} "
              f"in {seconds:.1f} s ({len(frame) / max(seconds, 1e-9):,.0f} games/s)")
        print(summary(frame).round(2).to_string())
        if out and not _rows_written(frame, out, args.csv):
            return 1
    except BaseException:
        if out:
            out.discard()
        raise
    if out:
        try:
            out.commit()
        except OSError as err:
            raise ValueError(f"argument --csv: cannot write {args.csv} ({err.strerror or err}); "
                             f"the rows are in {out.tmp}") from None
        except ValueError as err:      # the target became a folder, device or FIFO meanwhile
            raise ValueError(f"{err}; the rows are in {out.tmp}") from None
        print(f"wrote {args.csv}")
    return 0


def _rows_written(frame, out: OutputFile, name: str) -> bool:
    """Write the rows to the temporary file beside the target; on a full disk (any OSError)
    remove it, say so in one line and keep the summary already printed."""
    try:
        frame.to_csv(out.tmp)
        return True
    except OSError as err:
        out.discard()
        sys.stdout.flush()
        print(f"yatzy: error: argument --csv: cannot write {short(name, 200)} ({err.strerror or err}); "
              "the summary above is complete, the rows are not written", file=sys.stderr)
        return False


# ---- study ------------------------------------------------------------------------------------

def add_study_parser(subparsers) -> argparse.ArgumentParser:
    from ..players.study import GAMES, SLOW_GAMES
    p = subparsers.add_parser(
        "study", help="compare every strategy on one rule set from seeded games",
        description="Play every strategy from the same seed; print games/s, mean, standard "
                    "error, std, min, max, then the average points of every box.")
    rules_argument(p)
    p.add_argument("--games", type=GAMES_ARG, default=GAMES, metavar="N",
                   help=f"games per fast strategy (default {GAMES})")
    p.add_argument("--slow-games", type=GAMES_ARG, default=SLOW_GAMES, metavar="N",
                   help=f"games for mc_planner (default {SLOW_GAMES})")
    p.add_argument("--strategies", default=None, metavar="NAMES", type=strategy_list,
                   help="comma separated (default: all)")
    p.add_argument("--seed", type=whole(0), default=0, help="(default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=study_command)
    return p


def study_command(args) -> int:
    """Print the comparison table, then the per-box averages (boxes as rows)."""
    import pandas as pd

    from ..players.study import STAT_COLUMNS, run_study
    study = run_study(args.rules, args.strategies, games=args.games, slow_games=args.slow_games,
                     seed=args.seed, progress=not args.quiet)
    table = study.table()
    seconds = study.seconds()
    table.insert(1, "games/s", [len(study.frames[n]) / seconds[n] for n in table.index])
    print(f"{printable(study.rules.name)}: every strategy from seed {args.seed}")
    with pd.option_context("display.width", 200, "display.max_columns", 40):
        print(table[["games", "games/s"] + STAT_COLUMNS[1:]].round(2).to_string())
        print("\naverage points per box")
        print(table.drop(columns=["games/s"] + STAT_COLUMNS).T.round(2).to_string())
    return 0
