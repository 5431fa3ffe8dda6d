"""The state values exported for the web page (`engine.value_tables`, `yatzy export`): the file
reads back to the solver's values, its header describes them, and a damaged or foreign file is
refused. Tiny rule sets only: the site's three tables are checked in tests/test_play_page.py."""
import contextlib
import gzip
import hashlib
import io
import struct
from pathlib import Path

import numpy as np
import pytest

from yatzy_core.cli import command as cli
from yatzy_core.engine.cache import rules_fingerprint
from yatzy_core.engine.solver import solve
from yatzy_core.engine.value_tables import MAGIC, gzipped, read_value_table, scoring_data, value_table
from yatzy_core.game import rulefile
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace

ROOT_JS = Path(__file__).resolve().parent / "js"     # the page's JavaScript tests (tests/test_play_js.py)
YAHTZEE = get_rules("yahtzee")
# four boxes of Hasbro Yahtzee with its Yahtzee bonus and forced joker, the upper bonus at 20
SMALL = YAHTZEE.with_(name="small-yahtzee", upper_bonus_threshold=20,
                      boxes=tuple(b for b in YAHTZEE.boxes if b.name in ("fives", "sixes", "full_house", "yahtzee")))


@pytest.fixture(scope="module")
def small():
    return solve(SMALL, progress=False)


def test_the_file_reads_back_to_the_solvers_values(small):
    data = value_table(small)
    table = read_value_table(data)
    space = StateSpace(SMALL)
    assert data[:8] == MAGIC and struct.unpack_from("<I", data, 8)[0] == 1
    assert table.values.dtype == np.dtype("<f4") and len(table.values) == space.size == 16 * 21 * 2
    reach = space.reachable
    assert np.array_equal(table.values[reach], small.values[reach].astype("<f4"))
    assert not table.values[~reach].any()                                  # unreachable: zeros
    assert abs(float(table.values[0]) - small.expected_score) < 2e-5
    h = table.header
    assert (h["rules"], h["fingerprint"], h["layout"], h["value_type"], h["count"]) == \
        ("small-yahtzee", rules_fingerprint(SMALL), "dense", "float32-le", space.size)
    assert (h["n_boxes"], h["n_upper"], h["n_flags"]) == (4, 21, 2)
    assert h["sha256"] == hashlib.sha256(table.values.tobytes()).hexdigest()
    assert rulefile.loads(h["rule_file"]) == SMALL                          # a game log's rules
    assert (16 + struct.unpack_from("<I", data, 12)[0]) % 4 == 0            # values aligned for a Float32Array


def test_gzip_compressed_reads_the_same_and_is_the_same_every_time(small):
    data = value_table(small)
    packed = gzipped(data)
    assert packed == gzipped(data) and gzip.decompress(packed) == data     # no time stamp
    assert np.array_equal(read_value_table(packed).values, read_value_table(data).values)


def test_scoring_is_data_a_reader_needs_no_rules_for():
    data = scoring_data(YAHTZEE)
    sixes = data["rolls"].index([6, 6, 6, 6, 6])
    full_house = data["boxes"].index("full_house")
    assert data["score_table"][sixes][full_house] == 0 and data["joker_table"][sixes][full_house] == 25
    assert (data["yahtzee_bonus"], data["joker"], data["upper_bonus"], data["upper_cap"]) == (100, "forced", 35, 63)
    assert len(data["rolls"]) == 252 and data["rolls"][0] == [1, 1, 1, 1, 1] and data["rolls"][-1] == [6] * 5


@pytest.mark.parametrize("damage, message", [
    (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "SHA-256"),
    (lambda d: b"NOTVALUE" + d[8:], "magic"),
    (lambda d: d[:8] + struct.pack("<I", 2) + d[12:], "format version 2"),
    (lambda d: d[:-4], "bytes of values"),
    (lambda d: d[:16] + b"[" + d[17:], "damaged header"),
    (lambda d: gzipped(d)[:-9], "gzip"),
])
def test_a_damaged_file_is_refused(small, damage, message):
    with pytest.raises(ValueError, match=message):
        read_value_table(damage(value_table(small)))


def test_bad_arguments_are_named(small):
    with pytest.raises(TypeError, match="solution must be a Solution"):
        value_table(small.values)
    with pytest.raises(TypeError, match="data must be the file's bytes"):
        read_value_table("YATZYVAL")


def call(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def test_the_export_command_writes_the_table(tmp_path, private_cache, small):
    rules_file = tmp_path / "small.toml"
    rules_file.write_text(rulefile.dumps(SMALL))
    out = tmp_path / "small.values.gz"
    status, printed, err = call("export", "--what", "values", "--rules-file", str(rules_file), str(out))
    assert (status, err) == (0, "") and "small-yahtzee state values" in printed
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    assert read_value_table(out.read_bytes()).values.tobytes() == value_table(small)[-4 * 16 * 21 * 2:]
    status, _, err = call("export", "--rules-file", str(rules_file), str(out))     # --what values: the default
    assert status == 2 and err.count("\n") == 1 and "exists; pass --force" in err
    status, _, err = call("export", "--rules-file", str(rules_file), "--force", str(tmp_path / "raw.values"))
    assert status == 0 and (tmp_path / "raw.values").read_bytes()[:8] == MAGIC


def test_saved_roll_games_are_not_exported(tmp_path):
    status, _, err = call("export", "--rules", "maxi-yatzy", str(tmp_path / "maxi"))
    assert status == 2 and "save rolls" in err and not (tmp_path / "maxi").exists()
