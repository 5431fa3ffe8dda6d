"""A saved-roll solve stopped part way resumes from its checkpoint folder with the same numbers,
bit for bit, and a damaged checkpoint is never read."""
import numpy as np
import pytest

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


def test_a_layer_cut_short_is_ignored(tmp_path):
    folder = LayerCheckpoint(tmp_path, GAMES["two-dice"], np.float64, before=0, moments=False)
    folder.save(2, [np.arange(12.0).reshape(6, 2)])
    assert folder.latest()[0] == 2
    (layer,) = tmp_path.glob("*.npy")
    layer.write_bytes(layer.read_bytes()[:100])              # a full disk or a killed writer
    with pytest.warns(UserWarning, match="damaged"):
        assert folder.latest() is None
    folder.clear()
    assert list(tmp_path.iterdir()) == []


def test_a_solve_keeping_layers_after_the_checkpoint_does_not_resume(tmp_path, monkeypatch):
    """keep=None needs every layer in memory: a checkpoint of layer 2 cannot give layers 3 and 4."""
    done = stopped_after(monkeypatch, 2)
    with pytest.raises(Stop):
        solve_saved(GAMES["two-dice"], progress=False, keep=0, checkpoint=tmp_path)
    done.clear()
    done.limit = None
    whole = solve_saved(GAMES["two-dice"], progress=False, checkpoint=tmp_path)
    assert done == [3, 2, 1, 0] and all(layer is not None for layer in whole.layers)


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
