"""A saved-roll solve stopped part way resumes from its checkpoint folder with the same numbers,
bit for bit, and a damaged checkpoint is never read."""
import numpy as np
import pytest

import yatzy_core.engine.layer_checkpoint as checkpoint_module
import yatzy_core.engine.saved as saved
from test_saved_rolls import GAMES, TEXTS
from yatzy_core.cli.command import main
from yatzy_core.engine.layer_checkpoint import LayerCheckpoint
from yatzy_core.engine.saved import solve_saved


class Stop(Exception):
    pass


class Solved(list):
    limit: int | None


def stopped_after(monkeypatch, layers: int):
    """Make the solve stop (as a killed process would) after solving `layers` layers; returns the
    list of the layers solved, appended to as they are (clear it and the next solve may solve
    `layers` more; set its `limit` to None and it goes on to the end)."""
    solve_layer, done = saved._solve_layer, Solved()
    done.limit = layers

    def counted(rules, space, used, *rest):
        if len(done) == done.limit:
            raise Stop
        solve_layer(rules, space, used, *rest)
        done.append(used)

    monkeypatch.setattr(saved, "_solve_layer", counted)
    return done


@pytest.mark.parametrize("moments", [False, True])
def test_a_stopped_solve_resumes_with_the_same_numbers(tmp_path, monkeypatch, moments):
    game = GAMES["two-dice"]                                 # 4 boxes: layers 3, 2, 1, 0
    fresh = solve_saved(game, progress=False, keep=0, moments=moments)
    done = stopped_after(monkeypatch, 2)
    with pytest.raises(Stop):
        solve_saved(game, progress=False, keep=0, moments=moments, checkpoint=tmp_path)
    assert done == [3, 2]
    done.clear()
    done.limit = None
    resumed = solve_saved(game, progress=False, keep=0, moments=moments, checkpoint=tmp_path)
    assert done == [1, 0]                                    # only the layers not yet written
    assert resumed.layers[0].tobytes() == fresh.layers[0].tobytes()
    assert resumed.expected_score == fresh.expected_score
    if moments:
        assert resumed.std == fresh.std
    # one layer is kept on disk: the last (layer 0), so that a third solve is done at once
    assert len(list(tmp_path.glob("*.npy"))) == (2 if moments else 1)
    done.clear()
    assert solve_saved(game, progress=False, keep=0, moments=moments, checkpoint=tmp_path).expected_score \
        == fresh.expected_score and done == []


def test_a_checkpoint_of_other_numbers_is_not_read(tmp_path, monkeypatch):
    """Values only, float32 or another game: each its own files, never resumed from another's."""
    done = stopped_after(monkeypatch, 3)
    with pytest.raises(Stop):
        solve_saved(GAMES["two-dice"], progress=False, keep=0, checkpoint=tmp_path)
    done.clear()
    done.limit = None
    solve_saved(GAMES["two-dice"], progress=False, keep=0, moments=True, checkpoint=tmp_path)
    solve_saved(GAMES["two-dice"], progress=False, keep=0, dtype=np.float32, checkpoint=tmp_path)
    assert done == [3, 2, 1, 0] * 2


def test_a_damaged_checkpoint_is_ignored_with_a_warning(tmp_path, monkeypatch):
    game = GAMES["two-dice"]
    fresh = solve_saved(game, progress=False, keep=0)
    done = stopped_after(monkeypatch, 2)
    with pytest.raises(Stop):
        solve_saved(game, progress=False, keep=0, checkpoint=tmp_path)
    (layer,) = tmp_path.glob("*.npy")
    data = bytearray(layer.read_bytes())
    data[-3] ^= 0x55                                          # one byte of the values flipped
    layer.write_bytes(bytes(data))
    done.clear()
    done.limit = None
    with pytest.warns(UserWarning, match="damaged"):
        again = solve_saved(game, progress=False, keep=0, checkpoint=tmp_path)
    assert done == [3, 2, 1, 0] and again.expected_score == fresh.expected_score


@pytest.mark.parametrize("cut", [100, 0])
def test_a_layer_cut_short_or_of_another_shape_is_ignored(tmp_path, cut):
    folder = LayerCheckpoint(tmp_path, GAMES["two-dice"], np.float64, before=0, moments=False)
    folder.save(2, [np.arange(12.0).reshape(6, 2)])
    assert folder.latest(lambda used: [(6, 2)])[0] == 2
    with pytest.warns(UserWarning, match="damaged"):
        assert folder.latest(lambda used: [(6, 3)]) is None   # not the layout this solve expects
    (layer,) = tmp_path.glob("*.npy")
    layer.write_bytes(layer.read_bytes()[:cut])               # a full disk or a killed writer
    with pytest.warns(UserWarning, match="damaged"):
        assert folder.latest(lambda used: [(6, 2)]) is None
    folder.clear()
    folder.release()
    assert [p.suffix for p in tmp_path.iterdir()] == [".lock"]


def test_a_solve_keeping_every_layer_refuses_a_checkpoint(tmp_path):
    """keep=None holds every layer in memory: it could neither resume nor use one."""
    with pytest.raises(ValueError, match="argument checkpoint: needs keep=k"):
        solve_saved(GAMES["two-dice"], progress=False, checkpoint=tmp_path)


def test_keep_one_resumes_from_layer_two_and_not_from_layer_zero(tmp_path, monkeypatch):
    game = GAMES["two-dice"]
    fresh = solve_saved(game, progress=False, keep=1)
    done = stopped_after(monkeypatch, 2)                     # layers 3 and 2 written
    with pytest.raises(Stop):
        solve_saved(game, progress=False, keep=1, checkpoint=tmp_path)
    done.clear()
    done.limit = None
    resumed = solve_saved(game, progress=False, keep=1, checkpoint=tmp_path)
    assert done == [1, 0] and resumed.layers[1].tobytes() == fresh.layers[1].tobytes()
    assert resumed.layers[0].tobytes() == fresh.layers[0].tobytes()
    # now layer 0 is on disk: a solve keeping layer 1 cannot use it, and leaves it alone
    done.clear()
    with pytest.warns(UserWarning, match="cannot give the layers up to 1"):
        again = solve_saved(game, progress=False, keep=1, checkpoint=tmp_path)
    assert done == [3, 2, 1, 0] and again.layers[1].tobytes() == fresh.layers[1].tobytes()
    assert [p.name.split("-layer")[1] for p in tmp_path.glob("*.npy")] == ["0-0.npy"]   # still there


def test_layers_of_other_kernel_code_are_not_resumed(tmp_path, monkeypatch):
    game = GAMES["two-dice"]
    done = stopped_after(monkeypatch, 2)
    with pytest.raises(Stop):
        solve_saved(game, progress=False, keep=0, checkpoint=tmp_path)
    monkeypatch.setattr(checkpoint_module, "kernel_source_sha256", lambda: "another kernel")
    done.clear()
    done.limit = None
    solve_saved(game, progress=False, keep=0, checkpoint=tmp_path)
    assert done == [3, 2, 1, 0]


def test_a_second_solve_on_the_same_folder_is_refused(tmp_path):
    first = LayerCheckpoint(tmp_path, GAMES["two-dice"], np.float64, before=0, moments=False)
    with pytest.raises(ValueError, match="argument checkpoint: .* in use by another solve"):
        solve_saved(GAMES["two-dice"], progress=False, keep=0, checkpoint=tmp_path)
    first.release()
    assert solve_saved(GAMES["two-dice"], progress=False, keep=0, checkpoint=tmp_path).expected_score > 0


def test_cli_solve_resumes_and_refuses_a_checkpoint_without_saved_rolls(tmp_path, capsys):
    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\nsaved_rolls = true\n' + TEXTS["two-boxes"])
    assert main(["solve", "--rules-file", str(path), "--std", "--checkpoint", str(tmp_path / "layers")]) == 0
    first = capsys.readouterr().out
    assert main(["solve", "--rules-file", str(path), "--std", "--checkpoint", str(tmp_path / "layers")]) == 0
    again = capsys.readouterr().out
    assert first.splitlines()[:2] == again.splitlines()[:2]   # expected score and std
    plain = tmp_path / "plain.toml"
    plain.write_text('name = "plain"\n' + TEXTS["two-boxes"])
    assert main(["solve", "--rules-file", str(plain), "--checkpoint", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "argument --checkpoint" in err[0]
