"""The two-player backward pass on Dask (a LocalCluster of two worker processes) against the
single-process compiled path, bit for bit; a store with finished layers is resumed."""
import numpy as np
import pytest

zarr = pytest.importorskip("zarr")
pytest.importorskip("distributed")

from yatzy_core.engine.chunked import Stopped, clear_stop, request_stop  # noqa: E402
from yatzy_core.objectives.versus_compiled import versus_layers  # noqa: E402
from yatzy_core.objectives.versus_dask import layer_name, local_client, close_client, solve_versus_dask  # noqa: E402

from test_two_player import GAMES  # noqa: E402

GAME = GAMES["upper-bonus"]          # 3 boxes, the upper bonus: 6 layers


@pytest.fixture(scope="module")
def client():
    client = local_client(2)
    yield client
    close_client(client)


def test_two_workers_give_the_single_process_values_bit_for_bit(client, tmp_path):
    store = str(tmp_path / "layers.zarr")
    run = solve_versus_dask(GAME, store, client=client, block=2)
    expected = dict(versus_layers(GAME))
    assert (run.layers_done, run.layers_kept) == (6, 0) and len(expected) == 6
    for (ka, kb), W in expected.items():
        stored = zarr.open_array(store, path=layer_name(ka, kb), mode="r")[:]
        assert stored.shape == W.shape and np.array_equal(stored, W), (ka, kb)
    assert run.first == expected[0, 0][0, 0, W.shape[2] // 2]


def test_the_split_into_wins_and_ties_is_the_single_process_paths_bit_for_bit_on_1_and_2_workers(client, tmp_path):
    from yatzy_core.objectives.two_player import solve_versus
    one_process = solve_versus(GAME)
    expected = (one_process.first_wins, one_process.tie, one_process.second_wins)
    two = solve_versus_dask(GAME, str(tmp_path / "two.zarr"), client=client, block=2)
    # the compiled layers (W by the target kernel, the tie chance by the tie lanes) may differ from
    # the numpy path's in the last bits (1e-15); 1 and 2 workers agree exactly
    assert np.allclose((two.first_wins, two.tie, two.second_wins), expected, rtol=0, atol=1e-12)
    assert 0 < two.tie < 1
    single = local_client(1)
    try:
        one = solve_versus_dask(GAME, str(tmp_path / "one.zarr"), client=single)
    finally:
        close_client(single)
    assert (one.first_wins, one.tie, one.second_wins, one.first) == (two.first_wins, two.tie, two.second_wins,
                                                                     two.first)
    for ka, kb in [(0, 0), (1, 1), (2, 3)]:      # every tie chance, not only the start's
        stored = [zarr.open_array(str(tmp_path / f), path=layer_name(ka, kb, "T"), mode="r")[:]
                  for f in ("one.zarr", "two.zarr")]
        assert np.array_equal(*stored), (ka, kb)


def test_the_value_alone_stores_no_tie_layers(client, tmp_path):
    run = solve_versus_dask(GAME, str(tmp_path / "w.zarr"), client=client, split=False)
    assert (run.tie, run.first_wins) == (None, None)
    assert not any(name.startswith("T_") for name in zarr.open_group(str(tmp_path / "w.zarr"), mode="r").array_keys())


def test_a_store_with_finished_layers_is_resumed(client, tmp_path):
    store = str(tmp_path / "layers.zarr")
    first = solve_versus_dask(GAME, store, client=client, block=2).first
    for ka, kb in [(0, 1), (0, 0)]:          # as if stopped before the last two layers were done
        array = zarr.open_array(store, path=layer_name(ka, kb), mode="r+")
        array[:] = 0.0
        del array.attrs["complete"]
    run = solve_versus_dask(GAME, store, client=client, block=2)
    assert (run.layers_done, run.layers_kept, run.first) == (2, 4, first)


def test_a_store_of_other_value_code_is_computed_again_not_resumed(client, tmp_path):
    from yatzy_core.engine.code_key import code_key
    store = str(tmp_path / "layers.zarr")
    first = solve_versus_dask(GAME, store, client=client, split=False)
    assert zarr.open_group(store, mode="r").attrs["code"] == code_key()
    zarr.open_group(store, mode="r+").attrs["code"] = "0" * len(code_key())       # as if older code wrote it
    again = solve_versus_dask(GAME, store, client=client, split=False)
    assert (again.layers_done, again.layers_kept, again.first) == (first.layers_done, 0, first.first)
    kept = solve_versus_dask(GAME, store, client=client, split=False)
    assert (kept.layers_done, kept.layers_kept) == (0, first.layers_done)


def test_a_stop_leaves_no_layer_marked_complete(client, tmp_path):
    store = str(tmp_path / "layers.zarr")
    request_stop()
    try:
        with pytest.raises(Stopped):
            solve_versus_dask(GAME, store, client=client, block=2)
    finally:
        clear_stop()
    assert not any(zarr.open_group(store, mode="r")[name].attrs.get("complete")
                   for name in zarr.open_group(store, mode="r").array_keys())


def test_another_rule_sets_store_is_refused(client, tmp_path):
    store = str(tmp_path / "layers.zarr")
    solve_versus_dask(GAMES["chance-2rolls"], store, client=client)
    with pytest.raises(ValueError, match="another rule set"):
        solve_versus_dask(GAME, store, client=client)


def test_the_cli_runs_the_dask_path_on_a_store_and_resumes_it(client, tmp_path, monkeypatch, capsys):
    import json

    from yatzy_core import cli
    from yatzy_core.objectives import versus_dask
    from yatzy_core.objectives.two_player import solve_versus
    monkeypatch.setattr(versus_dask, "local_client", lambda workers: client)   # the module's cluster
    monkeypatch.setattr(versus_dask, "close_client", lambda c: None)
    rules_file = tmp_path / "tiny.toml"
    rules_file.write_text('name = "tiny"\nn_dice = 2\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 0\n'
                          '[[boxes]]\nname = "threes"\nscorer = "upper"\nface = 3\n'
                          '[[boxes]]\nname = "chance"\nscorer = "chance"\n')
    argv = ["versus", "solve", "--rules-file", str(rules_file), "--workers", "2",
            "--store", str(tmp_path / "tiny.zarr"), "--json"]
    assert cli.main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["layers_done"], got["layers_kept"]) == (4, 0)
    from yatzy_core.game.rulefile import load
    one_process = solve_versus(load(str(rules_file)))
    assert got["first"] == pytest.approx(one_process.first, abs=1e-12)
    assert (got["first_wins"], got["tie"], got["second_wins"]) == pytest.approx(
        (one_process.first_wins, one_process.tie, one_process.second_wins), abs=1e-12)
    assert cli.main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["layers_done"], again["layers_kept"], again["first"]) == (0, 4, got["first"])


def test_the_local_clusters_dashboard_link_is_given(client):
    pytest.importorskip("bokeh")                  # the cluster extra's: the dashboard is served with it
    from yatzy_core.objectives.versus_dask import dashboard_of
    link = dashboard_of(client)
    assert link.startswith("http://127.0.0.1:") and link.endswith("/status")


def _layers(store):
    group = zarr.open_group(store, mode="r")
    return {name: group[name][:] for name in sorted(group.array_keys())}


def _solve_quietly_then_damaged(client, store, expect_warning):
    from yatzy_core.engine.cache import CacheWarning
    if not expect_warning:
        return solve_versus_dask(GAME, store, client=client, block=2)
    with pytest.warns(CacheWarning, match=expect_warning) as said:
        run = solve_versus_dask(GAME, store, client=client, block=2)
    assert len([w for w in said if issubclass(w.category, CacheWarning)]) == 1    # one line
    return run


def test_deleted_and_altered_chunks_are_computed_again_bit_for_bit(client, tmp_path):
    import os
    store = str(tmp_path / "layers.zarr")
    fresh = solve_versus_dask(GAME, store, client=client, block=2)
    want = _layers(store)
    result = (fresh.first, fresh.first_wins, fresh.tie, fresh.second_wins)
    # the reported case: the start layer's first chunks deleted (Zarr read them as its fill, 0 before)
    for name in ("W_0_0", "T_0_0"):
        os.remove(os.path.join(store, name, "c", "0", "0", "0"))
    run = _solve_quietly_then_damaged(client, store, "layer 0,0 has 2 missing or damaged")
    assert (run.layers_done, run.layers_kept) == (1, 5)
    assert (run.first, run.first_wins, run.tie, run.second_wins) == result
    # a middle layer's chunk with a byte changed on disk: that layer again, the ones after kept
    # (it comes back bit for bit, so what was computed from it stands)
    chunk = os.path.join(store, "W_1_2", "c", "0", "0", "0")
    data = bytearray(open(chunk, "rb").read())
    data[len(data) // 2] ^= 0xFF
    open(chunk, "wb").write(bytes(data))
    run = _solve_quietly_then_damaged(client, store, "layer 1,2 has 1 missing or damaged")
    assert (run.layers_done, run.layers_kept) == (1, 5)
    # a value changed through Zarr (a well-formed chunk, other numbers)
    zarr.open_array(store, path="T_1_1", mode="r+")[0, 0, 0] += 1e-9
    run = _solve_quietly_then_damaged(client, store, "layer 1,1 has 1 missing or damaged")
    assert (run.layers_done, run.layers_kept, run.first, run.tie) == (1, 5, fresh.first, fresh.tie)
    got = _layers(store)
    assert got.keys() == want.keys() and all(np.array_equal(got[n], want[n]) for n in want)
    kept = _solve_quietly_then_damaged(client, store, None)
    assert (kept.layers_done, kept.layers_kept) == (0, 6)
    assert np.isnan(zarr.open_array(store, path=layer_name(0, 0), mode="r").fill_value)


def test_a_layer_that_comes_back_with_other_bits_has_the_layers_after_it_computed_again(client, tmp_path):
    store = str(tmp_path / "layers.zarr")
    fresh = solve_versus_dask(GAME, store, client=client, block=2)
    digests = zarr.open_array(store, path="digests/W_1_2", mode="r+")
    digests[...] = 0                                         # as if other bits had been written then
    run = _solve_quietly_then_damaged(client, store, "layer 1,2 has")
    # the order is (2,3) (2,2) (1,2) (1,1) (0,1) (0,0): (1,2) and the three read after it
    assert (run.layers_done, run.layers_kept, run.first, run.tie) == (4, 2, fresh.first, fresh.tie)


def test_a_chunk_lost_while_a_run_reads_it_is_an_error_not_a_value(client, tmp_path):
    import os
    from yatzy_core.objectives.versus_dask import _task
    store = str(tmp_path / "layers.zarr")
    run = solve_versus_dask(GAME, store, client=client, block=2)
    os.remove(os.path.join(store, "W_1_2", "c", "0", "0", "0"))     # the layer (1,1)'s tasks read
    with pytest.raises(ValueError, match="layer W_1_2 lost a chunk"):
        _task(GAME, store, 1, 1, (0, 2), (0, 2), True)
    from yatzy_core.objectives.versus_dask import _start_value
    reach = zarr.open_array(store, path="T_0_0", mode="r").shape[2] // 2     # the lane of lead 0
    assert _start_value(store, "T_0_0", reach) == run.tie
    os.remove(os.path.join(store, "T_0_0", "c", "0", "0", "0"))   # the start's, after its layer was done
    with pytest.raises(ValueError, match="layer T_0_0 lost a chunk"):
        _start_value(store, "T_0_0", reach)


def test_a_layer_marked_complete_without_digests_is_computed_again(client, tmp_path):
    store = str(tmp_path / "layers.zarr")
    fresh = solve_versus_dask(GAME, store, client=client, block=2)
    import shutil
    shutil.rmtree(tmp_path / "layers.zarr" / "digests" / "T_0_1")
    run = _solve_quietly_then_damaged(client, store, "layer 0,1 is marked complete but its block digests")
    assert (run.layers_done, run.layers_kept, run.first, run.tie) == (2, 4, fresh.first, fresh.tie)
