"""`yatzy export`: a solved rule set's numbers written for programs without the package.

An `add_*_parser(subparsers)` function for `command.SUBCOMMANDS`. `--what values` writes the
turn-start state values as the binary table of `engine.value_tables` (what the course site's
"Play and ask" page reads); an OUT ending in `.gz` is written gzip-compressed, as the site sends
it. `--what positions` (dataset rows) is named here so that the one command serves both; it is
not written yet. The file appears only once complete (`args.OutputFile`), and an existing one is
replaced only with --force.
"""
from __future__ import annotations

import argparse

from .args import OutputFile, path, rules_argument

__all__ = ["add_export_parser", "run_export", "WHAT"]

WHAT = ("values", "positions")


def add_export_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "export", help="write a solved rule set's numbers to a file (state values for the web page)",
        description="Write a solved rule set's numbers to OUT. --what values: every turn-start "
                    "state's expected points still to come, as a float32 binary table with a "
                    "versioned JSON header and a SHA-256 of the values (gzip-compressed when OUT "
                    "ends in .gz).")
    p.add_argument("out", metavar="OUT", type=path, help="the file to write (.gz: gzip-compressed)")
    p.add_argument("--what", choices=WHAT, default="values",
                   help="values: the turn-start state values (the default); positions: dataset "
                        "rows (not available yet)")
    rules_argument(p)
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.set_defaults(run=run_export)
    return p


def run_export(args) -> int:
    from ..engine.cache import get_solution
    from ..engine.value_tables import gzipped, value_table
    from ..game.rules import get_rules
    if args.what == "positions":
        raise ValueError("argument --what: positions is not available yet; --what values writes "
                         "the state values")
    rules = get_rules(args.rules)
    if rules.saved_rolls:
        raise ValueError(f"argument --rules: rules {rules.name!r} save rolls; their values are not exported")
    out = OutputFile.open(args.out, args.force, "OUT")     # checked before the solve
    try:
        data = value_table(get_solution(rules, progress=False))
        if args.out.endswith(".gz"):
            data = gzipped(data)
        out.tmp.write_bytes(data)
        out.commit()
    finally:
        out.discard()
    print(f"{args.out}: {rules.name} state values, {len(data):,} bytes")
    return 0
