"""The `yatzy` command: solve a rule set, ask the advisor about a position, describe the rules.

Each subcommand is one `add_*_parser(subparsers)` function that registers its arguments and the
function that runs it; `SUBCOMMANDS` lists them, so a new subcommand is one function plus one
entry in that list. Bad input ends in one line, `yatzy: error: argument --flag: ...`, and exit
status 2, before any work is done; a cache that cannot be used is one `yatzy: warning: ...` line.
A closed pipe (`yatzy info | head -1`) ends the command quietly with status 1, as Python advises.

>>> main(["advise", "--rules", "yahtzee", "--dice", "11112", "--rolls-left", "2", "--top", "1"])
yahtzee: dice 1 1 1 1 2, 2 rerolls left; used: none; upper total 0
rank  action         E[to come]      loss
   1  keep 1 1 1 1     270.2986    0.0000
E[to come]: the expected points still to come, this turn's included (not the points on the card)
0

(`--json` prints the same choices with every value in full precision.)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import warnings

from ..version import __version__
from ..advice.advisor import advise
from ..objectives.goals import AtLeast
from ..objectives.registry import objective_for
from ..engine.position import Position, counted
from ..engine.cache import CacheWarning, get_solution
from ..engine.chunked import clear_stop
from .args import (MAX_MESSAGE, card_flags, chosen_objective, flag, folder, objective_flags, printable, rules_argument,
                   short, text, whole)
from .distribution import add_distribution_parser
from .export import add_export_parser
from .versus import add_versus_parser
from .grade import add_grade_parser
from .study import add_simulate_parser, add_study_parser
from ..game.rulefile import load
from ..game.rules import Rules, get_rules
from ..game.scoring import box_label
from ..game.states import StateSpace

__all__ = ["build_parser", "main"]

PROG = "yatzy"
NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|infinity|nan)$", re.IGNORECASE)


# ---- solve ----------------------------------------------------------------------------------

def add_solve_parser(subparsers) -> None:
    p = subparsers.add_parser("solve", help="solve a rule set and print its optimal expected score")
    rules_argument(p)
    p.add_argument("--no-cache", action="store_true",
                   help="solve afresh, neither reading nor writing the per-user cache")
    p.add_argument("--std", action="store_true",
                   help="also the exact standard deviation (a second pass, about 5x the solve; "
                        "with saved rolls carried along the solve, about 9x)")
    p.add_argument("--goal", type=whole(0, 2000), default=None, metavar="T",
                   help="also print the best P(final >= T) and max-mean play's P(final >= T)")
    p.add_argument("--checkpoint", metavar="DIR", default=None, type=folder,
                   help="a game with saved rolls: write each finished layer to DIR, and resume "
                        "from the last one there (a long solve that was stopped goes on)")
    p.set_defaults(run=run_solve)


def _cache_stamp(rules: Rules, use_cache: bool):
    """The cached table's (modification time, size), or None when there is none to read."""
    from ..engine.cache import cache_path, cacheable
    if not use_cache or not cacheable(rules):
        return None
    try:
        found = os.stat(cache_path(rules))
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size


def run_solve(args) -> int:
    rules = get_rules(args.rules)
    if rules.saved_rolls:
        return _solve_saved(args, rules)
    if args.checkpoint is not None:
        raise ValueError(f"argument --checkpoint: only for a game with saved rolls (rules {rules.name!r} "
                         "are solved in minutes and cached)")
    before = _cache_stamp(rules, not args.no_cache)
    start = time.perf_counter()
    solution = get_solution(rules, use_cache=not args.no_cache, progress=True)
    elapsed = time.perf_counter() - start
    print(f"expected score: {solution.expected_score:.4f}")
    if before is not None and before == _cache_stamp(rules, True):     # the file read, not rewritten
        print(f"time: loaded from the cache in {elapsed:.2f} s; solving it took {solution.seconds:.2f} s "
              "when it was made")
    else:
        print(f"time: solved in {elapsed:.2f} s")
    if args.std:
        start = time.perf_counter()
        print(f"std: {solution.std:.4f} ({time.perf_counter() - start:.2f} s)")
    if args.goal is not None:
        from ..objectives.distribution import score_distribution
        from ..objectives.targets import max_total, target_table
        from .long_work import announce_work
        targets = None
        if args.goal <= max_total(rules):
            announce_work(AtLeast(args.goal), rules, use_cache=not args.no_cache)
            targets = target_table(rules, args.goal, use_cache=not args.no_cache, progress=True)
        reach, seconds = (0.0, 0.0) if targets is None else (targets.p_at_least(args.goal), targets.seconds)
        mean_play = score_distribution(rules, use_cache=not args.no_cache).p_at_least(args.goal)
        print(f"P(final >= {args.goal}): playing to reach it {reach:.6f}, "
              f"playing for the mean {mean_play:.6f} (targets solved in {seconds:.2f} s)")
    return 0


def _solve_saved(args, rules) -> int:
    """A game with saved rolls: its value (and with --std its spread, the second moments carried
    along), solved afresh holding two layers at a time; its tables are not cached and goals
    are not computed for it."""
    if args.goal is not None:
        raise ValueError(f"argument --goal: not computed for a game with saved rolls (rules {rules.name!r})")
    from ..engine.saved import solve_saved
    solution = solve_saved(rules, progress=True, keep=0, moments=args.std, checkpoint=args.checkpoint)
    print(f"expected score: {solution.expected_score:.4f}")
    if args.std:
        print(f"std: {solution.std:.4f}")
    print(f"time: {solution.seconds:.2f} s (saved rolls: solved afresh, not cached)")
    return 0


# ---- advise ---------------------------------------------------------------------------------

def add_advise_parser(subparsers) -> None:
    p = subparsers.add_parser("advise", help="rank every choice in a position by expected score")
    rules_argument(p)
    p.add_argument("--dice", required=True, type=text, nargs="+", metavar="DICE",
                   help="the dice showing: 11112, 1,1,1,1,2 or 1 1 1 1 2")
    p.add_argument("--rolls-left", type=whole(), default=None, metavar="N",
                   help="rerolls still allowed this turn: 2 after the first roll, 0 after the last")
    p.add_argument("--used", default="", metavar="BOXES", type=text,
                   help="used boxes, comma separated: ones,twos")
    p.add_argument("--upper", type=whole(), default=0, metavar="TOTAL",
                   help="points in the upper boxes so far")
    p.add_argument("--yahtzee-bonus", action="store_true", help="the Yahtzee box holds 50")
    p.add_argument("--json", action="store_true", help="print JSON objects, best first")
    p.add_argument("--top", type=whole(1), default=None, metavar="N", help="show only the N best choices")
    p.add_argument("--no-cache", action="store_true",
                   help="solve afresh, neither reading nor writing the per-user cache")
    p.add_argument("--points", type=whole(0, 2000), default=None, metavar="P",
                   help=f"points on the card so far, bonuses included (with {card_flags()})")
    objective_flags(p, "rank the choices by")
    p.set_defaults(run=run_advise)


def position_from_flags(args) -> Position:
    """Position.make with one flag more at a time, so an error names the flag that caused it."""
    given, position = {}, None
    dice = ",".join(args.dice) if isinstance(args.dice, list) else args.dice    # 1 2 3 4 5: one die a word
    for name, key, value in (("--dice", "dice", dice), ("--used", "used", args.used),
                             ("--upper", "upper_total", args.upper),
                             ("--rolls-left", "rolls_left", args.rolls_left),
                             ("--yahtzee-bonus", "yahtzee_bonus", args.yahtzee_bonus)):
        given[key] = value
        with flag(name):
            try:
                position = Position.make(args.rules, **given)
            except ValueError as err:
                if name == "--dice" and "write them" not in str(err):
                    raise ValueError(f"{err} (dice are written 11112, 1,1,1,1,2 or 1 1 1 1 2)") from None
                raise
    return position


def run_advise(args) -> int:
    position = position_from_flags(args)
    objective = objective_of(args, position)
    table = None
    from .long_work import announce_work
    if announce_work(objective, position.rules, position, not args.no_cache):   # said first, solved with a bar
        table = objective.table(position, not args.no_cache, progress=True)
    ranked = advise(position, table, use_cache=not args.no_cache, objective=objective)
    _print_advice(args, position, ranked[:args.top], objective)
    return 0


def objective_of(args, position: Position):
    """The advice objective the flags ask for (`args.chosen_objective`: one flag of a registered
    objective, with --points for one played from the card), else the mean; ValueError naming a flag."""
    kind, values, asked = chosen_objective(args)
    if args.points is not None and not kind.on_card:
        raise ValueError(f"argument --points: goes with {card_flags()}")
    if asked and position.rules.saved_rolls and not kind.saved_rolls:
        raise ValueError(f"argument {asked}: a game with saved rolls is advised for the mean only")
    points = 0 if args.points is None else args.points
    if kind.on_card:
        with flag("--points"):
            position.points_so_far(points)
    with flag(asked or "--points"):
        objective = objective_for(kind.key, points=points if kind.on_card else None, **values)
        objective.check(position.rules)
        return objective


def _print_advice(args, position, ranked, objective) -> None:
    """The ranked choices as a table (the mean with its loss) or JSON."""
    if args.json:
        print("[\n" + ",\n".join("  " + json.dumps(a.to_dict(), allow_nan=False) for a in ranked) + "\n]")
        return
    print(printable(position))
    aim, head = objective.aim(), objective.column
    if aim:
        print(aim)
    width = max(len(a.text) for a in ranked)
    if ranked[0].measure == "expected":
        print(f"{'rank':>4}  {'action':<{width}}  {'E[to come]':>11}  {'loss':>8}")
        for rank, a in enumerate(ranked, start=1):
            print(f"{rank:>4}  {a.text:<{width}}  {a.value:>11.4f}  {a.loss:>8.4f}")
        print("E[to come]: the expected points still to come, this turn's included (not the points on the card)")
        return
    print(f"{'rank':>4}  {'action':<{width}}  {head:>13}")
    for rank, a in enumerate(ranked, start=1):
        print(f"{rank:>4}  {a.text:<{width}}  {a.value:>13.6f}")


# ---- info -----------------------------------------------------------------------------------

def add_info_parser(subparsers) -> None:
    p = subparsers.add_parser("info", help="state counts, boxes and bonuses of a rule set")
    rules_argument(p)
    p.set_defaults(run=run_info)


def run_info(args) -> int:
    rules = get_rules(args.rules)
    name, description = printable(rules.name), printable(rules.description)   # text from a file
    print(f"{name}: {description}" if description else name)
    dice, rolls = counted(rules.n_dice, "die", "dice"), counted(rules.rolls_per_turn, "roll")
    print(f"{dice} with {rules.faces} faces, {rolls} a turn")
    for key, n in StateSpace(rules).counts().items():
        print(f"{key.replace('_', ' ')}: {n:,}")
    print(f"boxes ({rules.n_boxes}), as typed (--used) and as the card shows them:")
    width = max(16, *(len(box.name) for box in rules.boxes))
    for box in rules.boxes:
        kind = f"upper {box.face}" if box.is_upper else "lower"
        print(f"  {box.name:<{width}} {box_label(box.name):<{width}} {kind:<8} max {box.max_score}")
    if rules.tracks_upper:
        print(f"upper bonus: {rules.upper_bonus} at {rules.upper_bonus_threshold}")
    else:
        print("upper bonus: none")
    if rules.yahtzee_box and rules.yahtzee_bonus:
        print(f"yahtzee bonus: {rules.yahtzee_bonus} per extra {rules.yahtzee_box}, "
              f"joker rule: {rules.joker}")
    else:
        print("yahtzee bonus: none")
    return 0


# ---- the command ------------------------------------------------------------------------------

SUBCOMMANDS = [add_solve_parser, add_advise_parser, add_info_parser,
               add_simulate_parser, add_study_parser, add_distribution_parser, add_grade_parser,
               add_export_parser, add_versus_parser]


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors as one line, like the errors the package raises, and
    negative numbers in any form (-1e-3, -.5, -inf) taken as values, never as options."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_NUMBER

    def error(self, message):
        self.exit(2, short(f"{PROG}: error: {message} (see: {self.prog} --help)", MAX_MESSAGE) + "\n")

    def _get_values(self, action, arg_strings):
        # Python 3.11's argparse drops a lone "--" value, so `--games=--` would reach the command
        # as an empty list instead of being refused as a missing value.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            self.error(f"argument {'/'.join(action.option_strings)}: expected one argument")
        return super()._get_values(action, arg_strings)


def _warning_line(message, category, *_args, **_kwargs) -> None:
    from tqdm import tqdm      # a warning during a solve goes on a line of its own, not after its bar
    tqdm.write(short(f"{PROG}: warning: {message}", MAX_MESSAGE), file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Exact optimal play for Yahtzee and Yatzy.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 2 for bad input, 1 for a closed pipe
    or too little memory, 130 for Ctrl-C)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:     # --help, --version and argparse's own usage errors
        return exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 2
    clear_stop()                    # a stop asked of earlier work in this process is not this one's
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", CacheWarning)
            warnings.showwarning = _warning_line
            if getattr(args, "rules_file", None):   # every subcommand takes Rules for --rules
                args.rules = load(args.rules_file)
            status = args.run(args)
        sys.stdout.flush()          # a closed pipe shows up here, not at interpreter exit
        return status
    except (ValueError, TypeError) as err:
        print(short(f"{PROG}: error: {err}", MAX_MESSAGE), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader left (`| head`): point stdout at devnull so the exit flush is quiet too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except MemoryError:     # a limit the memory guard could not see: one line, not a traceback
        print(f"{PROG}: error: out of memory; use a smaller rule set, or raise the memory limit "
              "(ulimit -v, the container's)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:    # Ctrl-C: the shell's status for SIGINT, one line, no traceback
        print(f"{PROG}: {stopped_line(args)}", file=sys.stderr)
        return 130


def stopped_line(args) -> str:
    """What a Ctrl-C left behind: files appear only whole (a table, an export), so nothing of the
    stopped work is on disk, except the finished layers of a checkpointed solve."""
    where = getattr(args, "checkpoint", None)
    if where:
        return f"stopped (Ctrl-C); the finished layers are kept in {printable(str(where))} (run again to go on)"
    if any(getattr(args, name, None) for name in ("scheduler", "workers", "store")):    # versus on Dask
        return "stopped (Ctrl-C); the finished layers are kept in the store (run again to go on)"
    return "stopped (Ctrl-C); nothing half-done was saved"
