"""`yatzy export`: a solved rule set's numbers written for programs without the package.

An `add_*_parser(subparsers)` function for `command.SUBCOMMANDS`. `--what values` writes the
turn-start state values as the binary table of `engine.value_tables` (what the course site's
"Play and ask" page reads); an OUT ending in `.gz` is written gzip-compressed, as the site sends
it. `--what positions` writes the data set of `engine.dataset`: every turn-start state with its
value and `--sample N` in-turn positions (seeded by `--seed`) with every option's value, the best
option and its ties, as `--format jsonl` (the default; .gz compresses) or `parquet` (pyarrow).
The file appears only once complete (`args.OutputFile`), and an existing one is replaced only
with --force. A write that fails (a full disk) ends in one line and exit status 1, not 2: the
command was right and may simply be run again once there is room; no part of a file is left.
"""
from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager

import numpy as np

from .args import OutputFile, path, rules_argument, short

__all__ = ["add_export_parser", "run_export", "WHAT"]

WHAT = ("values", "positions")
SAMPLE = 10_000
MAX_SAMPLE = 5_000_000     # in-turn rows: the sample is drawn in memory at once, about 150 bytes a row


def add_export_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "export", help="write a solved rule set's numbers to a file (state values for the web page, a data set)",
        description="Write a solved rule set's numbers to OUT. --what values: every turn-start "
                    "state's expected points still to come, as a float32 binary table with a "
                    "versioned JSON header and one SHA-256 over header and values (gzip-compressed when OUT "
                    "ends in .gz). --what positions: a data set, every turn-start state with its "
                    "value and a seeded sample of in-turn positions with every option's value, the "
                    "best option and the options tied with it; the tie rule and the option index "
                    "are in the file's metadata.")
    p.add_argument("out", metavar="OUT", type=path, help="the file to write (.gz: gzip-compressed)")
    p.add_argument("--what", choices=WHAT, default="values",
                   help="values: the turn-start state values (the default); positions: the data set")
    p.add_argument("--format", choices=("jsonl", "parquet"), default=None,
                   help="positions only: jsonl (JSON Lines, the first line the metadata; the "
                        "default) or parquet (needs pyarrow: the 'dataset' extra)")
    p.add_argument("--sample", type=int, default=None, metavar="N",
                   help=f"positions only: in-turn positions to sample (default {SAMPLE:,})")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="positions only: the sample's seed (default 0)")
    p.add_argument("--no-starts", action="store_true",
                   help="positions only: leave out the turn-start rows (only the sampled in-turn positions)")
    rules_argument(p)
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.set_defaults(run=run_export)
    return p


class WriteFailed(Exception):
    """Writing OUT failed (a full disk, a lost mount): the message is the one line printed."""


@contextmanager
def _written(out: OutputFile, name: str):
    """Run the block that fills `out.tmp`, then give the file its name; a failed write (OSError)
    becomes WriteFailed, and the partial file is removed either way."""
    try:
        yield
        out.commit()
    except OSError as err:
        raise WriteFailed(f"cannot write {short(name, 80)}: {err.strerror or err}; nothing was written "
                          "(make room and run again)") from None
    finally:
        out.discard()


def run_export(args) -> int:
    try:
        return _export(args)
    except WriteFailed as err:
        print(f"yatzy: error: {err}", file=sys.stderr)
        return 1


def _export(args) -> int:
    from ..game.rules import get_rules
    rules = get_rules(args.rules)
    if rules.saved_rolls:
        raise ValueError(f"argument --rules: rules {rules.name!r} save rolls; their values are not exported")
    if args.what == "positions":
        return _positions(args, rules)
    for flag in ("format", "sample", "seed"):
        if getattr(args, flag) is not None:
            raise ValueError(f"argument --{flag}: only with --what positions")
    if args.no_starts:
        raise ValueError("argument --no-starts: only with --what positions")
    from ..engine.cache import get_solution
    from ..engine.value_tables import gzipped, value_table
    out = OutputFile.open(args.out, args.force, "OUT")     # checked before the solve
    with _written(out, args.out):
        data = value_table(get_solution(rules, progress=False))   # values solve in under a second (maxi aside)
        if args.out.endswith(".gz"):
            data = gzipped(data)
        out.tmp.write_bytes(data)
    print(f"{args.out}: {rules.name} state values, {len(data):,} bytes")
    return 0


def _positions(args, rules) -> int:
    """The data set (`engine.dataset`), written whole before it takes OUT's name."""
    from ..engine import dataset
    from ..engine.solutions import solution_for
    sample = SAMPLE if args.sample is None else args.sample
    seed = 0 if args.seed is None else args.seed
    if not 0 <= sample <= MAX_SAMPLE:
        raise ValueError(f"argument --sample: must be 0..{MAX_SAMPLE:,} (the sample is drawn in memory at "
                         f"once: about 150 bytes a row), got {sample:,}")
    if seed < 0:
        raise ValueError(f"argument --seed: must be >= 0, got {seed}")
    kind = args.format or "jsonl"
    if kind == "parquet":
        dataset.parquet_module("argument --format")       # before the solve
        if args.out.endswith(".gz"):
            raise ValueError("argument OUT: a parquet file compresses itself; drop the .gz")
    out = OutputFile.open(args.out, args.force, "OUT")
    start = time.perf_counter()
    with _written(out, args.out):
        solution = solution_for(rules)
        starts = not args.no_starts
        rows = {"start": len(dataset.start_states(solution)) if starts else 0, "in_turn": sample}
        meta = dataset.metadata(solution, sample, seed, rows)
        chunks = rows_shown(dataset.row_chunks(solution, sample, seed, starts=starts), sum(rows.values()),
                            _row_bar(sum(rows.values()), f"export {rules.name}"))
        if kind == "parquet":
            written = dataset.write_parquet(out.tmp, meta, chunks)
        else:
            written = dataset.write_jsonl(out.tmp, meta, chunks, compress=args.out.endswith(".gz"))
        size = out.tmp.stat().st_size
    print(f"{args.out}: {rules.name} positions, {written:,} rows ({rows['start']:,} turn starts, "
          f"{sample:,} in-turn), {size:,} bytes ({size / max(written, 1):.1f} a row), "
          f"{time.perf_counter() - start:.1f} s")
    return 0


def _row_bar(total: int, what: str):
    """A bar of the rows written, in a terminal (a pipe or a test's capture gets none), shown once
    the export has run a second: a data set of a real game takes tens of seconds, more under load."""
    from tqdm.auto import tqdm
    from ..engine.progress import progress_on
    return tqdm(total=total, desc=what, unit="row", delay=1.0, miniters=1, leave=False,
                disable=not (progress_on(True) and sys.stderr.isatty()))


def rows_shown(chunks, total: int, bar):
    """The data set's (kind, columns) chunks as they are written, `bar` (tqdm's update(n), close())
    moved on by each chunk's rows once it is written.

    >>> class Bar:
    ...     n = 0
    ...     def update(self, k): self.n += k
    ...     def close(self): pass
    >>> bar = Bar()
    >>> chunks = [("start", {"state": np.arange(3)}), ("in_turn", {"best": np.arange(2)})]
    >>> [kind for kind, _ in rows_shown(chunks, 5, bar)], bar.n
    (['start', 'in_turn'], 5)
    """
    try:
        for kind, columns in chunks:
            yield kind, columns
            bar.update(next(len(v) for v in columns.values() if isinstance(v, np.ndarray)))
    finally:
        bar.close()
