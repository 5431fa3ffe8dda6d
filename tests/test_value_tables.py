"""The state values exported for the web page (`engine.value_tables`, `yatzy export`): the file
reads back to the solver's values, its header describes them, and a damaged or foreign file is
refused. Tiny rule sets only: the site's three tables are checked in tests/test_play_page.py."""
import contextlib
import gzip
import hashlib
import io
import json
import struct
import tracemalloc
import zlib
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
    assert data[:8] == MAGIC and struct.unpack_from("<I", data, 8)[0] == 2
    assert table.values.dtype == np.dtype("<f4") and len(table.values) == space.size == 16 * 21 * 2
    reach = space.reachable
    assert np.array_equal(table.values[reach], small.values[reach].astype("<f4"))
    assert not table.values[~reach].any()                                  # unreachable: zeros
    assert abs(float(table.values[0]) - small.expected_score) < 2e-5
    h = table.header
    assert (h["rules"], h["fingerprint"], h["layout"], h["value_type"], h["count"]) == \
        ("small-yahtzee", rules_fingerprint(SMALL), "dense", "float32-le", space.size)
    assert (h["n_boxes"], h["n_upper"], h["n_flags"]) == (4, 21, 2)
    assert data[16:48] == hashlib.sha256(data[48:]).digest()               # header and values
    assert rulefile.loads(h["rule_file"]) == SMALL                          # a game log's rules
    assert (48 + struct.unpack_from("<I", data, 12)[0]) % 4 == 0            # values aligned for a Float32Array


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
    (lambda d: d[:8] + struct.pack("<I", 1) + d[12:], "format version 1, this reader reads version 2"),
    (lambda d: d[:-4], "bytes of values"),
    (lambda d: d[:48] + b"[" + d[49:], "damaged header"),
    (lambda d: d.replace(b'"yahtzee_bonus":100', b'"yahtzee_bonus":999'), "SHA-256"),   # the header is covered
    (lambda d: d.replace(b"[0,0,25,0]", b"[0,0,99,0]", 1), "SHA-256"),                  # a full house's score
    (lambda d: gzipped(d)[:-9], "gzip"),
])
def test_a_damaged_file_is_refused(small, damage, message):
    with pytest.raises(ValueError, match=message):
        read_value_table(damage(value_table(small)))


def forged(header, values: bytes = b"", tail: bytes = b"") -> bytes:
    """A file with this header (dict or raw JSON text) and a SHA-256 that matches: only the
    header's own checks can refuse it."""
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    text += b" " * (-(48 + len(text)) % 4)
    rest = text + values + tail
    return struct.pack("<8sII32s", MAGIC, 2, len(text), hashlib.sha256(rest).digest()) + rest


def header_of(data: bytes) -> dict:
    return json.loads(data[48:48 + struct.unpack_from("<I", data, 12)[0]])


def changed(small, **fields) -> bytes:
    """The small table re-signed with header fields changed (`scoring__x` changes scoring's x)."""
    data = value_table(small)
    header = header_of(data)
    for key, value in fields.items():
        if key.startswith("scoring__"):
            header["scoring"][key[9:]] = value
        elif value is None:
            del header[key]
        else:
            header[key] = value
    return forged(header, data[-4 * header_of(data)["count"]:])


@pytest.mark.parametrize("fields, message", [
    ({"n_upper": 20}, r"header count 672 is not 2\*\*n_boxes \* n_upper \* n_flags = 640"),
    ({"n_upper": 20, "count": 640}, "the shape .n_upper 20, n_flags 2. disagrees with the scoring"),
    ({"n_boxes": 5, "count": 1344}, r"'boxes' and 'upper_faces' must be 5 names"),
    ({"n_boxes": 3, "count": 336}, r"'yahtzee_index' must be a whole number -1..2, got 3"),
    ({"count": 1e400}, r"'count' must be a whole number 1..268,435,456, got inf"),
    ({"count": True}, r"'count' must be a whole number"),
    ({"scoring": None}, "no 'scoring' object"),
    ({"scoring__n_dice": 14}, r"'n_dice' must be a whole number 1..6, got 14"),
    ({"scoring__n_dice": 30}, r"'n_dice' must be a whole number 1..6, got 30"),
    ({"scoring__upper_cap": 40}, "disagrees with the scoring"),
    ({"scoring__tracks_yahtzee_bonus": False}, "disagrees with the scoring"),
    ({"scoring__rolls": [[1, 1, 1, 1, 1]]}, "'rolls' must be 252 rows of 5"),
    ({"scoring__score_table": [[0, 0, 0]] * 252}, "'score_table' must be 252 rows of 4"),
    ({"expected_score": "NaN"}, "'expected_score' must be a finite number"),
    ({"layout": "sparse"}, "this reader reads 'yatzy-state-values' 'dense'"),
    ({"rules": ["yahtzee"]}, "'rules' .a name. and 'rule_file' .text or null. are damaged"),
    ({"rule_file": 7}, "'rules' .a name. and 'rule_file' .text or null. are damaged"),
])
def test_a_header_that_disagrees_with_itself_is_refused_before_any_work(small, fields, message):
    with pytest.raises(ValueError, match=message):
        read_value_table(changed(small, **fields))


@pytest.mark.parametrize("text, message", [
    (b"null", "a JSON NoneType, not an object"),
    (b"[" * 200_000 + b"]" * 200_000, "damaged header"),
    (b'{"count": 1e400}', "this reader reads"),
])
def test_hostile_headers_are_one_clear_refusal(text, message):
    with pytest.raises(ValueError, match=message):
        read_value_table(forged(text))


def test_a_gzip_bomb_is_inflated_no_further_than_the_header_promises(small):
    data = value_table(small)
    zeros = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = zeros.compress(forged(header_of(data), data[-4 * 672:]))
    chunk = bytes(1 << 20)
    bomb += b"".join(zeros.compress(chunk) for _ in range(64)) + zeros.flush()   # 64 MB more, 65 kB sent
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="more bytes than the header's 672 float32 values"):
            read_value_table(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20                           # never the 64 MB it would inflate to
    assert len(bomb) < 200_000


def test_a_header_longer_than_the_reader_reads_is_refused_unread():
    data = struct.pack("<8sII32s", MAGIC, 2, 1 << 30, bytes(32))
    with pytest.raises(ValueError, match="a header of 1,073,741,824 bytes; this reader reads up to 8,388,608"):
        read_value_table(data)


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
