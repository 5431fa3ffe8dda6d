"""The two-player surfaces under hostile and clumsy input (`yatzy versus`, `--versus`, the
opponent's card, the endgame cache, the stored records): each case a reproducer of a fault found,
now one line naming the argument, or a refusal instead of a wrong answer or an unasked build."""
import json
import re
from dataclasses import replace

import numpy as np
import pytest

from yatzy_core import stored_result
from yatzy_core.advice.advisor import advise
from yatzy_core.engine.cache import CacheError, cache_path, layout_digest, write_trusted
from yatzy_core.engine.position import Position
from yatzy_core.game.rulefile import loads
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives import endgame
from yatzy_core.objectives.opponent_card import OpponentCard
from yatzy_core.objectives.versus_objective import Versus

from test_cli_versus import TINY_TEXT
from test_dataset_export import call

FOUR_TEXT = ('name = "four"\nn_dice = 1\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 0\n'
             '[[boxes]]\nname = "ones"\nscorer = "upper"\nface = 1\n'
             '[[boxes]]\nname = "twos"\nscorer = "upper"\nface = 2\n'
             '[[boxes]]\nname = "threes"\nscorer = "upper"\nface = 3\n'
             '[[boxes]]\nname = "chance"\nscorer = "chance"\n')


@pytest.fixture
def tiny_file(tmp_path, private_cache):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_TEXT)
    return path


# ---- yatzy versus solve on Dask: a store or scheduler no one can use is one line naming its flag --

@pytest.mark.parametrize("argv, says", [
    (["--store", "nosuchproto://x.zarr"], "argument --store: cannot use 'nosuchproto://x.zarr' (Protocol not known"),
])
def test_an_unreadable_store_url_is_one_line_naming_store_before_any_cluster(tiny_file, argv, says):
    pytest.importorskip("distributed")
    status, out, err = call("versus", "solve", "--rules-file", str(tiny_file), *argv)
    assert (status, out) == (2, "") and err.startswith(f"yatzy: error: {says}") and err.count("\n") == 1


def test_a_value_error_of_the_pass_is_not_said_as_a_store_fault(tiny_file, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from yatzy_core.objectives import versus_dask

    def guard(*args, **kwargs):
        raise ValueError("layer (1, 1): W above 1 at card 3")      # a wrong-answer guard inside the pass
    monkeypatch.setattr(versus_dask, "local_client", lambda workers: None)   # no cluster: the pass is `guard`
    monkeypatch.setattr(versus_dask, "close_client", lambda client: None)
    monkeypatch.setattr(versus_dask, "solve_versus_dask", guard)
    status, out, err = call("versus", "solve", "--rules-file", str(tiny_file), "--store", str(tmp_path / "s.zarr"))
    assert (status, out) == (2, "")      # before: "argument --store: cannot use '...s.zarr' (layer (1, 1): ...)"
    assert err == "yatzy: error: layer (1, 1): W above 1 at card 3\n"


def test_another_rule_sets_store_is_named_before_any_cluster(tiny_file, tmp_path, monkeypatch):
    zarr = pytest.importorskip("zarr")
    pytest.importorskip("distributed")
    from yatzy_core.objectives import versus_dask
    store = tmp_path / "other.zarr"
    zarr.open_group(str(store), mode="a").attrs.update(rules="0" * 16, name="yatzy")
    monkeypatch.setattr(versus_dask, "local_client", lambda workers: pytest.fail("a cluster started"))
    status, out, err = call("versus", "solve", "--rules-file", str(tiny_file), "--store", str(store))
    assert (status, out) == (2, "")
    assert err == (f"yatzy: error: argument --store: cannot use {str(store)!r} (it holds another rule set's "
                   "layers ('yatzy'))\n")


def test_a_scheduler_address_without_a_port_names_scheduler(tiny_file):
    pytest.importorskip("distributed")
    status, out, err = call("versus", "solve", "--rules-file", str(tiny_file), "--scheduler", "notaurl")
    assert (status, out) == (2, "")
    assert err == "yatzy: error: argument --scheduler: cannot connect to 'notaurl' (missing port number in address 'notaurl')\n"


# ---- the endgame cache: a layer beyond the default ones is read, never built unasked -------------

def _beyond(tmp_path, monkeypatch):
    """A 4-box game with the layers of `--open 3` in a private cache; the position with 3 boxes
    open against 2 reads layer (2, 2), one beyond the default layers."""
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path / "cache"))
    rules = loads(FOUR_TEXT)
    endgame._KEPT.clear()
    endgame.build_endgame(rules, 3, progress=False)
    endgame._KEPT.clear()
    position = Position.make(rules, dice="2", used=["ones"], upper_total=1, rolls_left=1)
    return rules, position, Versus(OpponentCard(used={"twos", "chance"}, upper_total=2), -1)


def test_a_damaged_layer_beyond_the_defaults_is_refused_not_rebuilt(tmp_path, monkeypatch):
    rules, position, versus = _beyond(tmp_path, monkeypatch)
    exact = [(a.text, round(a.value, 12)) for a in advise(position, versus.table(position), objective=versus)]
    assert versus.answer_for(position) is versus and len(exact) == 4
    path = cache_path(rules, endgame.layer_kind(2, 2))
    path.write_bytes(path.read_bytes()[:100])         # a half-copied file
    endgame._KEPT.clear()
    built = []
    monkeypatch.setattr(endgame, "_build", lambda *a: built.append(a[1:3]))
    import warnings
    with warnings.catch_warnings(record=True) as record, pytest.raises(
            ValueError, match=r"table \(2,2\) of four cannot be read from the cache \(unreadable file its file: "
                              r"BadZipFile.*\); it is built only when asked: run `yatzy versus endgame --open 3`"):
        warnings.simplefilter("always")
        versus.table(position)
    assert built == [] and record == []     # before: a warning, then the layer built (yahtzee's: 20 GB, 15 min)
    path.unlink()                           # no file at all: the approximation answers, labelled
    assert versus.answer_for(position) is not versus and built == []
    with pytest.raises(ValueError, match=r"table \(2,2\) of four is not in the cache; it is built only when asked"):
        endgame.turn_values(StateSpace(rules), position.state(StateSpace(rules)),
                            versus.opponent.state(StateSpace(rules)), -1)


def test_a_file_of_another_layer_is_refused_even_when_its_length_fits(tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    rules = loads(FOUR_TEXT)
    endgame._KEPT.clear()
    right = endgame.endgame_layer(rules, 2, 1)
    space, path = StateSpace(rules), cache_path(rules, endgame.layer_kind(2, 1))
    forged = np.full(right.values.size, 0.75)          # written by code that saved layer (1, 1) here
    write_trusted(path, rules, forged, endgame.FORMAT, seconds=0.0, layout=layout_digest(space),
                  layer=np.array([1, 1]))
    with pytest.raises(CacheError, match=r"holds layer \(1, 1\), not \(2, 1\)"):
        endgame._read(space, 2, 1)(path)
    endgame._KEPT.clear()
    with pytest.warns(UserWarning, match="computed again"):
        again = endgame.endgame_layer(rules, 2, 1)
    np.testing.assert_array_equal(again.values, right.values)


def _damage(path, how, rules):
    """Damage a layer file as a half copy, another layer's file, or one of the wrong length."""
    space = StateSpace(rules)
    if how == "cut short":
        path.write_bytes(path.read_bytes()[:-40])
    else:
        size = endgame.layer_values(rules, 2, 1) + (0 if how == "another layer" else 1)
        write_trusted(path, rules, np.full(size, 0.75), endgame.FORMAT, seconds=0.0, layout=layout_digest(space),
                      layer=np.array([1, 1] if how == "another layer" else [2, 1]))


@pytest.mark.parametrize("how, why", [("cut short", r"unreadable file its file: BadZipFile"),
                                      ("another layer", r"it holds layer \(1, 1\)"),
                                      ("one number more", r"it holds \(\d+,\) numbers, not \d+")])
def test_a_damaged_default_layer_is_refused_by_ready_not_rebuilt_by_a_click(tmp_path, monkeypatch, how, why):
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    rules = loads(FOUR_TEXT)
    endgame._KEPT.clear()
    endgame.build_endgame(rules, progress=False)
    endgame._KEPT.clear()
    position = Position.make(rules, dice="2", used=["ones", "twos"], upper_total=3, rolls_left=0)   # 2 open
    versus = Versus(OpponentCard(used={"ones", "chance"}, upper_total=1), 0)                         # 2 open
    monkeypatch.setattr(endgame, "RATE_SECONDS", 1.0)            # as if each value took a second: a click refuses
    versus.ready(position)                                       # whole: read by the click, no refusal
    assert versus.work(rules, position) == ("", 0.0)
    _damage(cache_path(rules, endgame.layer_kind(2, 1)), how, rules)
    with pytest.raises(ValueError, match=r"^versus: the endgame table \(2,1\) of four \(its file cannot be read from "
                                         rf"the cache \({why}.*\); \d+ values, then cached\) is damaged: run `yatzy "
                                         r"versus endgame --rules four` once"):
        versus.ready(position)                                   # before: passed, and the click rebuilt it
    assert versus.work(rules, position)[1] == endgame.layer_values(rules, 2, 1)


# ---- two processes building one endgame layer: the second waits for the first's file -----------

def test_a_second_process_waits_for_the_layer_being_built_then_reads_it(tmp_path, monkeypatch):
    import os
    import subprocess
    import sys
    from yatzy_core.engine.cache import build_lock_path
    from yatzy_core.engine.compiled.cache_lock import build_lock
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "four.toml").write_text(FOUR_TEXT)
    rules = loads(FOUR_TEXT)
    path = cache_path(rules, endgame.layer_kind(1, 0))
    path.parent.mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with build_lock(str(build_lock_path(path)), None):          # this process is building layer (1, 0)
        waiter = subprocess.Popen([sys.executable, "-m", "yatzy_core", "versus", "endgame", "--rules-file",
                                   str(tmp_path / "four.toml"), "--json"], env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        said = ""
        while "is building" not in said:                        # the state to wait for: it says it waits
            said = waiter.stderr.readline()
            assert said, "the second process ended without waiting"
        layer = endgame.endgame_layer(rules, 1, 0, use_cache=False)
        endgame._write(StateSpace(rules))(replace(layer, seconds=4321.0), path)
    out, err = waiter.communicate(timeout=120)
    assert said.startswith("yatzy: process ") and said.rstrip().endswith(
        f"is building {path.name}: waiting for it, then reading its file (Ctrl-C to stop)")
    assert waiter.returncode == 0, err
    first = json.loads(out)["layers"][0]                        # the first's file, read: not built again
    assert (first["layer"], first["kept"], first["seconds"]) == ([1, 0], True, 4321.0)


# ---- yatzy_core.stored_result: any name is a known record or one ValueError ----------------------

def test_a_name_too_long_for_the_system_is_an_unknown_record_not_an_oserror(tmp_path):
    (tmp_path / "tiny.json").write_text('{"a": 1}')
    for name in ("a" * 5000, "a\0b", "tiny.json", "../tiny", "", None):
        with pytest.raises(ValueError, match=r"no record .* \(known: tiny\)"):   # before: OSError, errno 36
            stored_result(name, tmp_path)
    assert stored_result("tiny", tmp_path) == {"a": 1}


def test_readings_without_their_sha256_are_refused(tmp_path):
    (tmp_path / "edited.json").write_text('{"readings": {"optimal": 300.0}}')   # the sha256 line deleted
    with pytest.raises(ValueError, match="'edited'.*damaged"):
        stored_result("edited", tmp_path)


# ---- the opponent's card: a slip is refused, never read as another card -------------------------

@pytest.mark.parametrize("text, says", [
    ("used=ones,ones", "box 'ones' named twice in used="),        # before: one box used, silently
    ("open=chance, yahtzee,chance", "box 'chance' named twice in open="),
    ("open", "unknown card field 'open'"),                        # before: no box open (a finished card)
    ("used", "unknown card field 'used'"),
    ("upper=1_0", "upper total must be a whole number, got '1_0'"),   # before: 10 (Python's int syntax)
    ("upper=\u0663", "upper total must be a whole number"),          # before: 3 (an Arabic-Indic digit)
    ("upper", "unknown card field 'upper'"),
])
def test_a_card_slip_is_refused(text, says):
    with pytest.raises(ValueError, match=says):
        OpponentCard.parse(text)


def test_a_card_built_in_python_checks_its_box_collections():
    for bad in (None, 5, [["ones"]]):
        with pytest.raises(ValueError, match="used must be a collection of box names"):   # before: accepted
            OpponentCard(used=bad)                    # (None: a TypeError at the first use or repr)
    assert OpponentCard.parse(" open= ; upper = +0 ") == OpponentCard(open_boxes=())


def test_the_cli_says_a_box_named_twice_in_one_line():
    status, out, err = call("versus", "advise", "--rules", "yatzy", "--dice", "11112", "--versus", "used=ones,ones",
                            "--lead", "5")
    assert (status, out) == (2, "")
    assert err.startswith("yatzy: error: argument --versus: opponent's card: box 'ones' named twice in used=")


# ---- a damaged cache file is said before its rebuild starts, not minutes later -------------------

def test_a_damaged_layer_is_said_before_its_rebuild(tmp_path, monkeypatch):
    import warnings
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    rules = loads(FOUR_TEXT)
    endgame._KEPT.clear()
    right = endgame.endgame_layer(rules, 2, 1)
    path = cache_path(rules, endgame.layer_kind(2, 1))
    path.write_bytes(b"PK" + path.read_bytes()[2:-40])       # a copy cut short
    endgame._KEPT.clear()
    build, said_first = endgame._build, []

    def build_and_look(space, m, w, nxt, progress):
        said_first.append(len(record))
        return build(space, m, w, nxt, progress)
    monkeypatch.setattr(endgame, "_build", build_and_look)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        again = endgame.endgame_layer(rules, 2, 1)
    assert said_first == [1] and "computed again" in str(record[0].message)   # before: [0], said at the end
    assert len(record) == 1
    np.testing.assert_array_equal(again.values, right.values)


# ---- yatzy versus plan|solve: a game the tables do not play is refused at once; a long count speaks

@pytest.mark.parametrize("command", ["plan", "solve"])
def test_a_game_with_saved_rolls_is_refused_at_once(command):
    status, out, err = call("versus", command, "--rules", "maxi-yatzy")    # before: counted 1-2 min in silence
    assert (status, out) == (2, "")
    assert err == "yatzy: error: argument --rules: rules 'maxi-yatzy' save rolls: the two-player tables do not play them\n"


def test_a_long_plan_is_announced_first(tiny_file, monkeypatch):
    from yatzy_core.cli import versus
    from yatzy_core.engine.progress import progress
    monkeypatch.setattr(versus, "PLAN_SECONDS_PER_STATE", 15.0)     # the tiny game's 4 states: a minute
    was = progress(True)
    try:
        status, out, err = call("versus", "plan", "--rules-file", str(tiny_file))
    finally:
        progress(was)
    assert status == 0 and out.startswith("tiny: two players")
    assert err.startswith("yatzy: counting the two-player layers of tiny: about 1 min on 2 cores") and err.count("\n") == 1


# ---- yatzy versus endgame on a full disk: every layer still built, the failure said and its status 1

def test_endgame_tables_not_saved_are_said_and_the_status_is_1(tiny_file, monkeypatch):
    import yatzy_core.engine.cache as cache

    def full_disk(f, **fields):
        f.write(b"PK partial")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cache.np, "savez_compressed", full_disk)
    endgame._KEPT.clear()
    status, out, err = call("versus", "endgame", "--rules-file", str(tiny_file), "--open", "1")
    assert status == 1                                              # before: 0, as if the tables were cached
    assert re.fullmatch(r"layer \(1,0\): 14 values, built in [0-9.]+ s; NOT saved \(the warning above says why\): "
                        r"advice will build it again", out.splitlines()[1])
    assert "No space left on device" in err and "not cached" in err
    endgame._KEPT.clear()
    damaged = cache_path(loads(TINY_TEXT), endgame.layer_kind(1, 0))   # a damaged file, then a full disk: the
    damaged.parent.mkdir(parents=True, exist_ok=True)                  # failed write leaves it in place
    damaged.write_bytes(b"junk")
    status, out, err = call("versus", "endgame", "--rules-file", str(tiny_file), "--open", "1")
    assert status == 1                                # before: 0, "all in the cache", "kept from the cache"
    assert out.splitlines()[0].endswith("1 layers, 14 values (0.00 GB float64), roughly 0.0 min on 2 cores")
    assert re.fullmatch(r"layer \(1,0\): 14 values, built in [0-9.]+ s; NOT saved \(the warning above says why\): "
                        r"advice will build it again", out.splitlines()[1])
    assert "unreadable file" in err and "No space left on device" in err and damaged.read_bytes() == b"junk"
    endgame._KEPT.clear()
