"""`yatzy export --what positions`: every turn-start state with its value and a seeded sample of
in-turn positions with every option, as JSON Lines and Parquet, checked row by row against the
solver and `advise` on a small rule file; the metadata states the tie rule."""
import contextlib
import io
import json
import sys
from fractions import Fraction

import numpy as np
import pytest

from yatzy_core import Position, advise
from yatzy_core.cli import command as cli
from yatzy_core.cli.args import MAX_MESSAGE, short
from yatzy_core.engine.dataset import TIE_RULE
from yatzy_core.engine.solver import solve
from yatzy_core.engine.batch_advice import option_index
from yatzy_core.game.dice import dice_of
from yatzy_core.game.rulefile import loads

TINY_TEXT = ('name = "tiny"\nn_dice = 2\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 0\n'
             '[[boxes]]\nname = "threes"\nscorer = "upper"\nface = 3\n'
             '[[boxes]]\nname = "chance"\nscorer = "chance"\n')
TINY = loads(TINY_TEXT)


def call(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def rules_file(tmp_path, private_cache):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_TEXT)
    return path


def read_jsonl(path):
    lines = path.read_text().splitlines()
    return json.loads(lines[0])["meta"], [json.loads(line) for line in lines[1:]]


def option_of(advice) -> int:
    return option_index(TINY, advice.action, advice.keep, advice.box)


def test_jsonl_rows_are_the_solvers_and_the_advisors(rules_file, tmp_path):
    out = tmp_path / "tiny.jsonl"
    status, printed, err = call("export", "--what", "positions", "--rules-file", str(rules_file),
                                "--sample", "40", "--seed", "7", str(out))
    assert (status, err) == (0, "") and "43 rows (3 turn starts, 40 in-turn)" in printed
    meta, rows = read_jsonl(out)
    assert meta["tie_rule"] == TIE_RULE and meta["tie"] == 1e-9 and meta["rows"] == {"start": 3, "in_turn": 40}
    assert meta["options"] == ["score threes", "score chance", "reroll all", "keep 1", "keep 2", "keep 3"]
    assert (meta["sample"], meta["seed"], meta["boxes"]) == (40, 7, ["threes", "chance"])
    # the three turn starts, exactly: chance alone is worth 2 x 7/3 (a die below 3 is rerolled:
    # (2 + 2 + 3) / 3 each), threes alone 3 x 2 x 5/9 (a die ends a three with chance 5/9)
    starts = rows[:3]
    assert [r["used"] for r in starts] == [0, 1, 2] and all(set(r) == {"kind", "state", "used", "upper_total",
                                                                      "yahtzee_bonus", "value"} for r in starts)
    assert Fraction(starts[1]["value"]).limit_denominator(1000) == Fraction(14, 3)
    assert Fraction(starts[2]["value"]).limit_denominator(1000) == Fraction(3 * 2 * 5, 9)
    solution = solve(TINY, progress=False)
    assert [r["value"] for r in starts] == pytest.approx([float(solution.values[r["state"]]) for r in starts], abs=1e-12)
    for row in rows[3:]:
        p = Position.make(TINY, used=[b for j, b in enumerate(TINY.box_names) if row["used"] >> j & 1],
                          upper_total=row["upper_total"], dice=dice_of(row["counts"]), rolls_left=row["rolls_left"])
        ranked = advise(p, solution)
        want = dict(sorted((option_of(a), a.value) for a in ranked))
        assert row["options"] == list(want) and row["option_values"] == pytest.approx(list(want.values()), abs=1e-12)
        assert row["best"] == option_of(ranked[0]) and row["value"] == pytest.approx(ranked[0].value, abs=1e-12)
        assert row["ties"] == sorted(option_of(a) for a in ranked if a.loss <= 1e-9)
    assert any(len(r["ties"]) > 1 for r in rows[3:])          # a tie is given, not hidden


def test_parquet_holds_the_same_rows(rules_file, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    args = ("export", "--what", "positions", "--rules-file", str(rules_file), "--sample", "40", "--seed", "7")
    assert call(*args, str(tmp_path / "tiny.jsonl"))[0] == 0
    status, printed, err = call(*args, "--format", "parquet", str(tmp_path / "tiny.parquet"))
    assert (status, err) == (0, "")
    table = pq.read_table(tmp_path / "tiny.parquet")
    meta, rows = read_jsonl(tmp_path / "tiny.jsonl")
    assert json.loads(table.schema.metadata[b"yatzy"]) == meta
    got = [{k: v for k, v in row.items() if v is not None} for row in table.to_pylist()]
    assert got == rows


def test_parquet_without_pyarrow_is_a_clear_error(rules_file, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    status, out, err = call("export", "--what", "positions", "--format", "parquet", "--rules-file",
                            str(rules_file), str(tmp_path / "x.parquet"))
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("yatzy: error: argument --format: parquet needs pyarrow") and "yatzy-core[dataset]" in err
    assert not (tmp_path / "x.parquet").exists()


def test_the_sample_is_seeded_and_compressible(rules_file, tmp_path):
    import gzip
    args = ("export", "--what", "positions", "--rules-file", str(rules_file), "--sample", "30")
    assert call(*args, "--seed", "1", str(tmp_path / "a.jsonl"))[0] == 0
    assert call(*args, "--seed", "1", str(tmp_path / "b.jsonl.gz"))[0] == 0
    assert call(*args, "--seed", "2", str(tmp_path / "c.jsonl"))[0] == 0
    a = (tmp_path / "a.jsonl").read_bytes()
    assert gzip.decompress((tmp_path / "b.jsonl.gz").read_bytes()) == a
    assert (tmp_path / "c.jsonl").read_bytes() != a


@pytest.mark.parametrize("argv, message", [
    (["--what", "values", "--sample", "5"], "argument --sample: only with --what positions"),
    (["--what", "positions", "--sample", "-1"], "argument --sample: must be 0..5,000,000"),
    (["--what", "positions", "--sample", str(10 ** 12)], "argument --sample: must be 0..5,000,000 (the sample is drawn in memory"),
    (["--what", "positions", "--rules", "maxi-yatzy"], "save rolls"),
])
def test_bad_arguments(tmp_path, argv, message):
    status, out, err = call("export", *argv, str(tmp_path / "rows"))
    assert (status, out) == (2, "") and message in err and err.count("\n") == 1
    assert not (tmp_path / "rows").exists()


def test_starts_cover_every_reachable_state():
    from yatzy_core.engine.dataset import start_states
    solution = solve(TINY, progress=False)
    assert start_states(solution).tolist() == [0, 1, 2]
    assert np.isclose(solution.values[0], solution.expected_score)


def test_turn_starts_can_be_left_out_and_integers_stay_integers(rules_file, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    args = ("export", "--what", "positions", "--rules-file", str(rules_file), "--sample", "20", "--seed", "7")
    status, printed, _ = call(*args, "--no-starts", str(tmp_path / "turns.jsonl"))
    assert status == 0 and "20 rows (0 turn starts, 20 in-turn)" in printed
    meta, rows = read_jsonl(tmp_path / "turns.jsonl")
    assert meta["rows"] == {"start": 0, "in_turn": 20} and {row["kind"] for row in rows} == {"in_turn"}
    assert all(type(row[k]) is int for row in rows for k in ("state", "used", "upper_total", "rolls_left", "best"))
    assert call(*args, "--format", "parquet", str(tmp_path / "all.parquet"))[0] == 0
    frame = pd.read_parquet(tmp_path / "all.parquet")
    assert {k: str(frame[k].dtype) for k in ("state", "used", "upper_total", "rolls_left", "best")} == \
        {"state": "Int64", "used": "Int64", "upper_total": "Int16", "rolls_left": "Int8", "best": "Int16"}
    assert frame["best"].isna().sum() == 3 and frame["rolls_left"].iloc[3:].tolist() == [r["rolls_left"] for r in rows]
    status, _, err = call("export", "--no-starts", "--rules-file", str(rules_file), str(tmp_path / "v"))
    assert status == 2 and "argument --no-starts: only with --what positions" in err


def full_disk(*args, **kwargs):
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("what, patch", [
    (["--what", "values"], "pathlib.Path.write_bytes"),
    (["--what", "positions"], "yatzy_core.engine.dataset.write_jsonl"),
    (["--what", "positions", "--format", "parquet"], "yatzy_core.engine.dataset.write_parquet"),
])
def test_a_full_disk_is_one_line_and_leaves_no_file(rules_file, tmp_path, monkeypatch, what, patch):
    """Exit 1 (the command was right; run it again once there is room), one line, no traceback,
    nothing left where OUT would be (the partial file is removed)."""
    if "parquet" in what:
        pytest.importorskip("pyarrow")
    out = tmp_path / "out" / "table"
    out.parent.mkdir()

    def half_then_full(path, *args, **kwargs):       # some bytes written, then the disk is full
        with open(path, "wb") as f:
            f.write(b"x" * 100)
        full_disk()
    monkeypatch.setattr(patch, half_then_full)
    status, printed, err = call("export", *what, "--rules-file", str(rules_file), str(out))
    assert (status, printed) == (1, "") and err.count("\n") == 1 and "Traceback" not in err
    said = f"yatzy: error: cannot write {short(str(out), 80)}: No space left on device; nothing was written (make room and run again)"
    assert err == short(said, MAX_MESSAGE) + "\n"          # one line, a long path shortened to 80 characters
    assert list(out.parent.iterdir()) == []


@pytest.mark.parametrize("what", [["--what", "values"], ["--what", "positions"]])
def test_out_made_by_another_program_meanwhile_is_a_clear_error_and_the_result_is_kept(
        rules_file, tmp_path, monkeypatch, what):
    from yatzy_core.cli import args as cli_args
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out" / "table"
    out.parent.mkdir()
    commit = cli_args.OutputFile.commit

    def someone_else_first(self):
        self.path.write_text("theirs")
        commit(self)
    monkeypatch.setattr(cli_args.OutputFile, "commit", someone_else_first)
    status, printed, err = call("export", *what, "--rules-file", str(rules_file), "out/table")
    assert (status, printed) == (2, "") and "FileExistsError" not in err
    assert err == ("yatzy: error: argument OUT: out/table appeared meanwhile (another program made it); "
                   "the result is kept beside it as table.new\n")
    assert out.read_text() == "theirs" and sorted(p.name for p in out.parent.iterdir()) == ["table", "table.new"]
    assert (out.parent / "table.new").stat().st_size > 100
