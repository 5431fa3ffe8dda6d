"""A checkpoint folder with something planted in it (a link, a FIFO, a layer whose header lies),
one that cannot be written, or a full disk: nothing outside the folder is written, nothing hangs,
a damaged layer is never allocated nor read, and the solve's result is never lost."""
import builtins
import errno
import os
import re
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

from test_layer_checkpoint import Stop, stopped_after
from test_saved_rolls import GAMES, TEXTS
from yatzy_core.cli.command import main
from yatzy_core.engine.layer_checkpoint import LayerCheckpoint
from yatzy_core.engine.saved import solve_saved
from yatzy_core.game.rulefile import load

GAME = GAMES["two-dice"]
REAL_OPEN = os.open   # a test may patch os.open; unblocking must not go through its patch
HANG = 300            # seconds: far longer than any of these solves; only a hang gets there


@pytest.fixture(scope="module")
def fresh():
    return solve_saved(GAME, progress=False, keep=0).expected_score


def key_of(folder: Path, rules=GAME, moments=False) -> str:
    probe = LayerCheckpoint(folder / ".probe", rules, np.float64, before=0, moments=moments)
    probe.release()
    return probe.key


def open_both_ends(fifo: Path) -> None:
    """Open `fifo` for reading and writing at once: whoever waits on its other end goes on."""
    os.close(REAL_OPEN(fifo, os.O_RDWR | os.O_NONBLOCK))


def finishes(run, unblock=lambda: None):
    """run() in a thread: (its result, the warnings' texts), or a failed test if it is still
    waiting after HANG seconds (then unblock() is called, so that it ends)."""
    out = {}

    def target():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out["result"] = run()
            except BaseException as err:     # handed to the test
                out["error"] = err
        out["warnings"] = [str(w.message) for w in caught]
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(HANG)
    if thread.is_alive():
        unblock()
        thread.join(HANG)
        pytest.fail(f"still waiting after {HANG} s")
    if "error" in out:
        raise out["error"]
    return out["result"], out["warnings"]


@pytest.fixture
def rules_file(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\nsaved_rolls = true\n' + TEXTS["two-boxes"])
    return path


@pytest.mark.parametrize("dangling", [False, True])
def test_a_link_at_the_lock_file_is_refused_and_its_target_left_alone(tmp_path, rules_file, capsys, dangling):
    folder = tmp_path / "layers"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    if not dangling:
        victim.write_text("precious")
    lock = folder / f"{key_of(tmp_path, load(rules_file))}.lock"
    lock.symlink_to(victim)
    assert main(["solve", "--rules-file", str(rules_file), "--checkpoint", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(lock) in err[0] and "not a plain file" in err[0], err
    assert victim.read_text() == "precious" if not dangling else not victim.exists()
    assert lock.is_symlink()


def test_a_fifo_at_the_lock_file_is_refused_not_waited_on(tmp_path):
    lock = tmp_path / f"{key_of(tmp_path)}.lock"
    os.mkfifo(lock)
    with pytest.raises(ValueError, match=f"argument checkpoint: {lock} is not a plain file"):
        finishes(lambda: solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path),
                 lambda: open_both_ends(lock))


def test_links_at_the_old_temporary_names_are_not_followed(tmp_path, fresh):
    """The temporary files were `<name>.<pid>.tmp`: a link planted there was written through."""
    key, victims = key_of(tmp_path), []
    names = [f"{key}-layer{used}-0.npy" for used in range(4)] + [f"{key}.json"]
    for i, name in enumerate(names):
        victim = tmp_path / f"victim{i}"
        victim.write_text("precious")
        (tmp_path / f"{name}.{os.getpid()}.tmp").symlink_to(victim)
        victims.append(victim)
    assert solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path).expected_score == fresh
    assert [v.read_text() for v in victims] == ["precious"] * len(victims)


def test_a_fifo_at_the_manifest_is_damage_not_a_hang(tmp_path, fresh):
    manifest = tmp_path / f"{key_of(tmp_path)}.json"
    os.mkfifo(manifest)
    solution, said = finishes(lambda: solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path),
                              lambda: open_both_ends(manifest))
    assert solution.expected_score == fresh
    assert any("damaged: the solve starts afresh" in s and str(manifest) in s for s in said), said
    assert manifest.is_file()                                 # replaced by this solve's own


def test_a_fifo_at_a_layer_is_damage_not_a_hang(tmp_path, monkeypatch, fresh):
    done = stopped_after(monkeypatch, 2)
    with pytest.raises(Stop):
        solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path)
    (layer,) = tmp_path.glob("*.npy")
    layer.unlink()
    os.mkfifo(layer)
    done.clear()
    done.limit = None
    solution, said = finishes(lambda: solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path),
                              lambda: open_both_ends(layer))
    assert solution.expected_score == fresh and done == [3, 2, 1, 0]
    assert any("damaged" in s for s in said), said


def test_a_layer_whose_header_claims_2_to_the_37_numbers_is_damaged(tmp_path, monkeypatch, fresh):
    """Never allocated: a header is checked against the layer this solve expects and the file's size."""
    done = stopped_after(monkeypatch, 2)
    with pytest.raises(Stop):
        solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path)
    (layer,) = tmp_path.glob("*.npy")
    with open(layer, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f8", "fortran_order": False, "shape": (2**37,)})
        f.write(bytes(64))
    done.clear()
    done.limit = None
    with pytest.warns(UserWarning, match="damaged: the solve starts afresh"):
        solution = solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path)
    assert solution.expected_score == fresh and done == [3, 2, 1, 0]


def unwritable(monkeypatch, folder: Path) -> None:
    """Every write in `folder` refused, as for a folder of another user's (the tests run as root)."""
    real_open, real_os_open, real_mkdir = builtins.open, os.open, os.mkdir
    inside = lambda p: str(Path(os.fspath(p)).absolute()).startswith(str(folder))   # noqa: E731
    refused = lambda p: PermissionError(errno.EACCES, "Permission denied", str(p))   # noqa: E731

    def guarded_open(file, mode="r", *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and inside(file) and set(mode) & set("wax+"):
            raise refused(file)
        return real_open(file, mode, *args, **kwargs)

    def guarded_os_open(path, flags, *args, **kwargs):
        if inside(path) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise refused(path)
        return real_os_open(path, flags, *args, **kwargs)

    def guarded_mkdir(path, *args, **kwargs):
        if inside(path) and not os.path.isdir(path):
            raise refused(path)
        return real_mkdir(path, *args, **kwargs)
    monkeypatch.setattr(builtins, "open", guarded_open)
    monkeypatch.setattr(os, "open", guarded_os_open)
    monkeypatch.setattr(os, "mkdir", guarded_mkdir)


@pytest.mark.parametrize("new", [False, True])
def test_a_folder_that_cannot_be_written_is_one_line(tmp_path, rules_file, monkeypatch, capsys, new):
    folder = tmp_path / "theirs"
    folder.mkdir()
    load(rules_file)                                          # read before the folder is closed
    unwritable(monkeypatch, folder)
    target = folder / "new" if new else folder
    assert main(["solve", "--rules-file", str(rules_file), "--checkpoint", str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("yatzy: error: argument checkpoint: cannot write in")
    assert str(target) in err[0] and "Permission denied" in err[0], err


def full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_keeps_the_result_and_says_so(tmp_path, monkeypatch, fresh):
    monkeypatch.setattr(np, "save", full_disk)
    with pytest.warns(UserWarning, match="cannot write .No space left on device.; the solve goes on") as said:
        solution = solve_saved(GAME, progress=False, keep=0, checkpoint=tmp_path)
    assert solution.expected_score == fresh
    assert len([w for w in said if "cannot write" in str(w.message)]) == 1     # once, not per layer
    assert [p.suffix for p in tmp_path.iterdir()] == [".lock"]                  # no temporary files left


def test_a_disk_that_fills_part_way_through_a_layer_keeps_the_last_whole_one(tmp_path, monkeypatch, fresh):
    """Layer 2's values are written, its second moments are not: the files of layer 2 go (they
    only take space), and layer 3, whole, is what a later solve resumes from."""
    real_save, saved = np.save, []

    def fills(f, array):
        saved.append(array.shape)
        if len(saved) == 4:                                   # layer 3: 2 arrays; layer 2: 1 of 2
            full_disk()
        real_save(f, array)
    monkeypatch.setattr(np, "save", fills)
    with pytest.warns(UserWarning, match="No space left on device"):
        solution = solve_saved(GAME, progress=False, keep=0, moments=True, checkpoint=tmp_path)
    assert solution.expected_score == fresh and len(saved) == 4
    assert sorted(p.name.split("-layer")[1] for p in tmp_path.glob("*.npy")) == ["3-0.npy", "3-1.npy"]
    monkeypatch.setattr(np, "save", real_save)
    done = stopped_after(monkeypatch, None)
    assert solve_saved(GAME, progress=False, keep=0, moments=True, checkpoint=tmp_path).expected_score == fresh
    assert done == [2, 1, 0]                                  # resumed from layer 3


def test_cli_solve_on_a_full_disk_answers_with_one_warning(tmp_path, rules_file, monkeypatch, capsys):
    assert main(["solve", "--rules-file", str(rules_file)]) == 0
    expected = capsys.readouterr().out.splitlines()[0]
    monkeypatch.setattr(np, "save", full_disk)
    assert main(["solve", "--rules-file", str(rules_file), "--checkpoint", str(tmp_path / "layers")]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == expected and expected.startswith("expected score: ")
    said = [line for line in re.split(r"[\r\n]", err) if "yatzy:" in line]   # tqdm's bar is on stderr too
    assert all(line.startswith("yatzy:") for line in said)                      # not after the bar's text
    assert said == [f"yatzy: warning: checkpoint {tmp_path / 'layers'}: cannot write "
                                        "(No space left on device); the solve goes on without checkpointing"]
