"""The `yatzy` command: solve a rule set, ask the advisor about a position, describe the rules.

Each subcommand is one `add_*_parser(subparsers)` function that registers its arguments and the
function that runs it; `SUBCOMMANDS` lists them, so a new subcommand is one function plus one
entry in that list. Bad input ends in one line, `yatzy: error: ...`, and exit status 2.

>>> main(["advise", "--rules", "yahtzee", "--dice", "11112", "--rolls-left", "2", "--json", "--top", "1"])
[
  {"action": "keep", "keep": [1, 1, 1, 1], "expected": 270.2986, "loss": 0.0}
]
0
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from . import __version__
from .advisor import Position, advise
from .cache import get_solution
from .cli_study import add_simulate_parser, add_study_parser
from .rules import get_rules, rule_names
from .states import StateSpace

PROG = "yatzy"


def _rules_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="yahtzee", metavar="NAME",
                        help=f"rule set: {', '.join(rule_names())} (default: yahtzee)")


# ---- solve ----------------------------------------------------------------------------------

def add_solve_parser(subparsers) -> None:
    p = subparsers.add_parser("solve", help="solve a rule set and print its optimal expected score")
    _rules_argument(p)
    p.add_argument("--no-cache", action="store_true",
                   help="solve afresh, neither reading nor writing the per-user cache")
    p.set_defaults(run=run_solve)


def run_solve(args) -> int:
    rules = get_rules(args.rules)
    start = time.perf_counter()
    solution = get_solution(rules, use_cache=not args.no_cache, progress=True)
    elapsed = time.perf_counter() - start
    print(f"expected score: {solution.expected_score:.4f}")
    print(f"time: {elapsed:.2f} s (solving took {solution.seconds:.2f} s)")
    return 0


# ---- advise ---------------------------------------------------------------------------------

def add_advise_parser(subparsers) -> None:
    p = subparsers.add_parser("advise", help="rank every choice in a position by expected score")
    _rules_argument(p)
    p.add_argument("--dice", required=True, help="the dice showing: 11112 or 1,1,1,1,2")
    p.add_argument("--rolls-left", type=int, default=2, metavar="N",
                   help="rerolls still allowed this turn: 2 after the first roll, 0 after the last")
    p.add_argument("--used", default="", metavar="BOXES", help="used boxes, comma separated: ones,twos")
    p.add_argument("--upper", type=int, default=0, metavar="TOTAL", help="points in the upper boxes so far")
    p.add_argument("--yahtzee-bonus", action="store_true", help="the Yahtzee box holds 50")
    p.add_argument("--json", action="store_true", help="print JSON objects, best first")
    p.add_argument("--top", type=int, default=None, metavar="N", help="show only the N best choices")
    p.set_defaults(run=run_advise)


def run_advise(args) -> int:
    if args.top is not None and args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    position = Position.make(args.rules, used=args.used, upper_total=args.upper, dice=args.dice,
                             rolls_left=args.rolls_left, yahtzee_bonus=args.yahtzee_bonus)
    ranked = advise(position, get_solution(position.rules))[:args.top]
    if args.json:
        print("[\n" + ",\n".join("  " + json.dumps(a.to_dict()) for a in ranked) + "\n]")
        return 0
    print(position)
    width = max(len(a.label) for a in ranked)
    print(f"{'rank':>4}  {'action':<{width}}  {'expected':>9}  {'loss':>8}")
    for rank, a in enumerate(ranked, start=1):
        print(f"{rank:>4}  {a.label:<{width}}  {a.expected:>9.4f}  {a.loss:>8.4f}")
    return 0


# ---- info -----------------------------------------------------------------------------------

def add_info_parser(subparsers) -> None:
    p = subparsers.add_parser("info", help="state counts, boxes and bonuses of a rule set")
    _rules_argument(p)
    p.set_defaults(run=run_info)


def run_info(args) -> int:
    rules = get_rules(args.rules)
    print(f"{rules.name}: {rules.description}" if rules.description else rules.name)
    print(f"{rules.n_dice} dice with {rules.faces} faces, {rules.rolls_per_turn} rolls a turn")
    for key, n in StateSpace(rules).counts().items():
        print(f"{key.replace('_', ' ')}: {n:,}")
    print(f"boxes ({rules.n_boxes}):")
    for box in rules.boxes:
        kind = f"upper {box.face}" if box.is_upper else "lower"
        print(f"  {box.name:<16} {kind:<8} max {box.max_score}")
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
               add_simulate_parser, add_study_parser]


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors as one line, like the errors the package raises."""

    def error(self, message):
        self.exit(2, f"{PROG}: error: {message} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Exact optimal play for Yahtzee and Yatzy.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 for bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:     # --help, --version and argparse's own usage errors
        return exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 2
    try:
        return args.run(args)
    except ValueError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
