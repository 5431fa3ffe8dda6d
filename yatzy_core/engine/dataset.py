"""The optimum as a data set (`yatzy export --what positions`): every turn-start state with its
value, and a seeded sample of in-turn positions with every option's value, the best option and
the options tied with it, as Parquet (pyarrow, the `dataset` extra) or JSON Lines (no extra).

Rows (one table; `kind` says which columns are filled, the others are null):

    kind           "start": a turn-start state (every reachable one short of a full card);
                   "in_turn": a sampled position (`batch_advice.random_positions`)
    state          the state index (`StateSpace.index`)
    used           the used boxes as a bit mask (bit b: box b of the metadata's "boxes")
    upper_total    the upper total, capped at the bonus threshold (as the tables store it)
    yahtzee_bonus  the Yahtzee box holds its 50 (later n of a kinds earn the bonus)
    value          expected points still to come under optimal play (max-mean)
    counts         in_turn: the dice showing, as counts per face 1..faces
    rolls_left     in_turn: rerolls left this turn
    options        in_turn: the legal options, ascending, in the one option index
                   (`batch_advice`; their names are the metadata's "options")
    option_values  in_turn: each legal option's value (the points of a box scored now included)
    best           in_turn: the best option under the package's tie rule
    ties           in_turn: every option within TIE = 1e-9 of the largest value, the best
                   included (length 1: no tie)

The metadata (Parquet: the schema's metadata key "yatzy"; JSON Lines: the first line, an object
with the one key "meta", then one row per line, holding only its kind's columns) states the rules (name, fingerprint, rule file),
the objective, the option index and names, the tie rule, the sampling, the seed and the row
counts. Integer columns are nullable integers in Parquet (the schema's "pandas" metadata names
them, so `pandas.read_parquet` gives Int8/Int16/Int64 with <NA>, not float64 with NaN) and
plain numbers in JSON Lines. `best` alone is a poor training label where options tie (equally good moves, one picked
by a convention): a learner should treat every option in `ties` as optimal.
"""
from __future__ import annotations

import gzip
import json
from typing import Iterator

import numpy as np

from ..game.rulefile import dumps as rule_file
from ..version import __version__
from .batch_advice import advise_batch, option_labels, random_positions
from .cache import rules_fingerprint
from .solver import Solution
from .turn import TIE

__all__ = ["FORMAT", "VERSION", "FORMATS", "metadata", "start_states", "row_chunks", "write_jsonl", "write_parquet",
           "parquet_module"]

FORMAT = "yatzy-positions"
VERSION = 1
FORMATS = ("jsonl", "parquet")
CHUNK = 50_000     # sampled positions advised at a time (bounds the (N, options) value array)
TIE_RULE = ("Options within TIE = 1e-9 of the largest value are equally good (the column ties); "
            "of them the best is a box before a keeper, boxes in card order, then keepers with "
            "more dice first, then in keeper order (the package's advise ranks them so)")
SAMPLING = ("in-turn positions: a turn state drawn uniformly from the reachable ones short of a "
            "full card, the dice rolled (each die uniform), the rerolls left uniform in "
            "0..rolls_per_turn - 1; seeded with numpy's default_rng(seed)")
COLUMNS = ("kind", "state", "used", "upper_total", "yahtzee_bonus", "value", "counts", "rolls_left",
           "options", "option_values", "best", "ties")
LISTS = {"counts", "options", "option_values", "ties"}


def metadata(solution: Solution, sample: int, seed: int, rows: dict[str, int]) -> dict:
    """What the file holds and how to read it (see the module docstring)."""
    rules = solution.rules
    try:
        text = rule_file(rules)
    except ValueError:      # a hand-made scorer has no rule-file form
        text = None
    return {"format": FORMAT, "version": VERSION, "package_version": __version__, "rules": rules.name,
            "fingerprint": rules_fingerprint(rules), "rule_file": text, "boxes": list(rules.box_names),
            "faces": rules.faces, "n_dice": rules.n_dice, "rolls_per_turn": rules.rolls_per_turn,
            "objective": "max-mean: expected points still to come", "expected_score": solution.expected_score,
            "option_index": "option b < n_boxes: score box b; option n_boxes + k: keep keeper k "
                            "(rules.dice.keepers[k], fewer dice than a roll) and reroll the rest",
            "options": list(option_labels(rules)), "tie": TIE, "tie_rule": TIE_RULE,
            "sampling": SAMPLING, "sample": sample, "seed": seed, "rows": rows, "columns": list(COLUMNS)}


def start_states(solution: Solution) -> np.ndarray:
    """Every reachable turn-start state short of a full card, ascending."""
    space = solution.space
    states = np.flatnonzero(space.reachable)
    return states[space.decode(states)[0] != (1 << space.n_boxes) - 1]


def row_chunks(solution: Solution, sample: int, seed: int, starts: bool = True) -> Iterator[tuple[str, dict]]:
    """(kind, columns) chunks in file order: the turn-start states (unless `starts` is False),
    then the sampled positions CHUNK at a time. List columns are (offsets, flat values) pairs."""
    space, rules = solution.space, solution.rules
    if starts:
        states = start_states(solution)
        used, upper, flag = space.decode(states)
        yield "start", {"state": states, "used": used, "upper_total": upper, "yahtzee_bonus": flag == 1,
                        "value": solution.values[states]}
    positions = random_positions(rules, sample, np.random.default_rng(seed))
    for at in range(0, sample, CHUNK):
        part = {name: a[at:at + CHUNK] for name, a in positions.items()}
        yield "in_turn", _advised(solution, part)


def _advised(solution: Solution, part: dict) -> dict:
    """The columns of sampled positions: their options, values, best option and ties."""
    rules, space = solution.rules, solution.space
    b = advise_batch(rules, **part, solution=solution)
    legal = b.legal
    ties = b.values >= b.values.max(axis=1, keepdims=True) - TIE
    n = len(b.best)

    def listed(mask, flat):
        return np.r_[0, np.cumsum(mask.sum(axis=1))].astype(np.int32), flat

    states = space.index(part["used"], np.minimum(part["upper_total"], rules.upper_cap), part["yahtzee_bonus"])
    return {"state": states, "used": part["used"], "upper_total": np.minimum(part["upper_total"], rules.upper_cap),
            "yahtzee_bonus": part["yahtzee_bonus"] == 1, "value": b.value,
            "counts": (np.arange(n + 1, dtype=np.int32) * rules.faces, part["counts"].reshape(-1)),
            "rolls_left": part["rolls_left"],
            "options": listed(legal, np.nonzero(legal)[1]), "option_values": listed(legal, b.values[legal]),
            "best": b.best, "ties": listed(ties, np.nonzero(ties)[1])}


def write_jsonl(path, meta: dict, chunks, compress: bool = False) -> int:
    """The header line, then one JSON object per row (gzip-compressed with `compress`); the rows
    written."""
    opener = gzip.open if compress else open
    rows = 0
    with opener(path, "wt", encoding="utf-8", newline="\n") as out:
        out.write(json.dumps({"meta": meta}) + "\n")
        for kind, columns in chunks:
            n = len(columns["state"])
            plain = {k: v.tolist() for k, v in columns.items() if k not in LISTS}
            lists = {k: (v[0].tolist(), v[1].tolist()) for k, v in columns.items() if k in LISTS}
            for i in range(n):
                row = {"kind": kind}
                row.update({k: v[i] for k, v in plain.items()})
                row.update({k: flat[offsets[i]:offsets[i + 1]] for k, (offsets, flat) in lists.items()})
                out.write(json.dumps(row, separators=(",", ":")) + "\n")
            rows += n
    return rows


def parquet_module(name: str = "format"):
    """pyarrow and pyarrow.parquet, or a ValueError naming `name` that says how to get them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ValueError(f"{name}: parquet needs pyarrow, which is not installed "
                         "(pip install 'yatzy-core[dataset]'), or write jsonl") from None
    return pyarrow


def _pandas_metadata(types: dict) -> dict:
    """The schema metadata pandas reads back a frame's column types from, naming each integer
    column's nullable type (Int8, Int16, Int64): pandas.read_parquet then gives whole numbers with
    <NA> on the rows of the other kind, not float64 with NaN."""
    columns = [{"name": name, "field_name": name, "pandas_type": str(kind), "numpy_type": "I" + str(kind)[1:],
                "metadata": None} for name, kind in types.items() if str(kind) in ("int8", "int16", "int64")]
    return {"index_columns": [], "column_indexes": [], "columns": columns, "pandas_version": "2.0.0"}


def write_parquet(path, meta: dict, chunks) -> int:
    """One row group per chunk, the metadata in the schema (key "yatzy"); the rows written."""
    pa = parquet_module()
    types = {"kind": pa.string(), "state": pa.int64(), "used": pa.int64(), "upper_total": pa.int16(),
             "yahtzee_bonus": pa.bool_(), "value": pa.float64(), "counts": pa.list_(pa.int8()),
             "rolls_left": pa.int8(), "options": pa.list_(pa.int16()), "option_values": pa.list_(pa.float64()),
             "best": pa.int16(), "ties": pa.list_(pa.int16())}
    schema = pa.schema([(name, types[name]) for name in COLUMNS],
                       metadata={"yatzy": json.dumps(meta), "pandas": json.dumps(_pandas_metadata(types))})
    rows = 0
    with pa.parquet.ParquetWriter(str(path), schema, compression="zstd") as writer:
        for kind, columns in chunks:
            n = len(columns["state"])
            arrays = []
            for name in COLUMNS:
                kind_of = types[name]
                if name == "kind":
                    arrays.append(pa.array([kind] * n, kind_of))
                elif name not in columns:
                    arrays.append(pa.nulls(n, kind_of))
                elif name in LISTS:
                    offsets, flat = columns[name]
                    arrays.append(pa.ListArray.from_arrays(pa.array(offsets, pa.int32()),
                                                           pa.array(flat, kind_of.value_type)))
                else:
                    arrays.append(pa.array(columns[name], kind_of))
            writer.write_table(pa.Table.from_arrays(arrays, schema=schema))
            rows += n
    return rows
