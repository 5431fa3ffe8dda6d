"""Finished layers of a long saved-roll solve kept on disk, so that a stopped solve resumes.

The whole Maxi Yatzy solve with second moments runs for hours; a process that is stopped (a
machine given back, a session's end) would lose every layer it finished. With a checkpoint
folder, `solve_saved` writes each finished layer there and lets the one before it go; a new
solve of the same game (rules fingerprint, table type, `before`, moments, and the source of the
kernels that computed the layers) starts from the last layer written.

A layer is written to temporary files, then renamed into place, and its manifest (shapes and
sha256 of the bytes) is written and renamed last, each synced to disk: a file cut short by a full
disk or a killed process is never read, and a damaged one fails its checksum or its expected
shape and is ignored, so a resumed solve gives the same numbers as one that never stopped. One
solve at a time holds a folder's key (a lock file); a second is refused.

The names are predictable (the key is a hash anyone can compute), so nothing planted there is
followed or waited on: the lock file is made without following a link and refused unless a plain
file, temporary files are new ones (mkstemp), and a manifest or layer that is a link, FIFO or
device, or whose header claims other numbers than the file holds, is damaged (never allocated,
never read). A folder that cannot be written is a ValueError; a write that fails later (a full
disk) is one warning, and the solve goes on without checkpointing: its result is never lost.

>>> import tempfile
>>> from yatzy_core.game.rules import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> game = Rules("chance-twice", (Box("a", total), Box("b", total)), upper_bonus=0, n_dice=1,
...              rolls_per_turn=2, saved_rolls=True)
>>> folder = LayerCheckpoint(tempfile.mkdtemp(), game, np.float64, before=0, moments=False)
>>> folder.save(1, [np.array([[4.5, 4.66]])])
>>> used, arrays = folder.latest(lambda used: [(1, 2)])
>>> used, arrays[0].tolist()
(1, [[4.5, 4.66]])
>>> folder.release()
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import math
import os
import stat
import tempfile
import warnings
from pathlib import Path

import numpy as np

from ..game.rules import Rules
from ..version import __version__
from .cache import new_file_mode, rules_fingerprint
from .plain_files import SAFE_OPEN, open_plain
from .solver import SolveWarning

__all__ = ["LayerCheckpoint", "kernel_source_sha256"]

KERNELS = ("layout.py", "kernel.py", "saved_kernel.py", "saved_moments.py")   # what computes the layers
MANIFEST_BYTES = 1 << 16   # a manifest is a few hundred bytes; a larger file is not one


def kernel_source_sha256() -> str:
    """sha256 of the compiled modules a saved-roll layer is computed with: layers written by other
    kernel code are never resumed from."""
    h = hashlib.sha256(__version__.encode())
    for name in KERNELS:
        h.update((Path(__file__).parent / "compiled" / name).read_bytes())
    return h.hexdigest()


class LayerCheckpoint:
    """Layers of one solve (rules, dtype, before, moments) in `folder`; at most one layer kept.
    Holds the key's lock until `release()` (or the process ends)."""

    def __init__(self, folder, rules: Rules, dtype, before: int, moments: bool):
        self.folder, self.dtype, self.n_boxes = Path(folder), np.dtype(dtype), rules.n_boxes
        key = (f"{rules_fingerprint(rules)}-{self.dtype.name}-b{before}-{'m' if moments else 'v'}"
               f"-{kernel_source_sha256()}")
        self.key = hashlib.sha256(key.encode()).hexdigest()[:16]
        self.manifest = self.folder / f"{self.key}.json"
        self.writing = True              # until a write fails (a full disk): then no more checkpoints
        self._lock = _lock_file(self.folder, self.folder / f"{self.key}.lock")
        for old in self.folder.glob(f".{self.key}*.tmp"):     # left by a killed solve of this key
            with contextlib.suppress(OSError):
                old.unlink(missing_ok=True)

    def release(self) -> None:
        """Let another solve use this folder's key."""
        if self._lock is not None:
            os.close(self._lock)         # closing the file releases the lock
            self._lock = None

    def _path(self, used: int, i: int) -> Path:
        return self.folder / f"{self.key}-layer{used}-{i}.npy"

    def _sync(self, path: Path, write) -> None:
        """Write `path` through a new temporary file (never a planted one), synced, then renamed
        into place; the temporary file is removed if anything fails."""
        fd, part = tempfile.mkstemp(dir=self.folder, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                os.fchmod(f.fileno(), new_file_mode())     # as any new file of the user's, not 0600
                write(f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(part, path)
        except BaseException:
            Path(part).unlink(missing_ok=True)
            raise

    def save(self, used: int, arrays: list) -> None:
        """Write the finished layer `used` (its arrays), then let every other layer go. A write
        that fails (a full disk) is one warning: the solve goes on, without checkpoints."""
        if not self.writing:
            return
        try:
            self._save(used, arrays)
        except OSError as err:
            self.writing = False
            warnings.warn(f"checkpoint {self.folder}: cannot write ({err.strerror or err}); "
                          "the solve goes on without checkpointing", SolveWarning, stacklevel=2)

    def _save(self, used: int, arrays: list) -> None:
        sums = []
        try:
            for i, array in enumerate(arrays):
                self._sync(self._path(used, i), lambda f, a=array: np.save(f, a))
                sums.append(hashlib.sha256(np.ascontiguousarray(array).data).hexdigest())
            text = json.dumps({"used": used, "shapes": [list(a.shape) for a in arrays], "sha256": sums})
            self._sync(self.manifest, lambda f: f.write(text.encode()))
        except OSError:                  # no manifest names this layer: its files only take space
            for i in range(len(arrays)):
                with contextlib.suppress(OSError):
                    self._path(used, i).unlink(missing_ok=True)
            raise
        folder = os.open(self.folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(folder)                      # the renames are on disk before anything is let go
        finally:
            os.close(folder)
        keep = {self._path(used, i).name for i in range(len(arrays))}
        for old in self.folder.glob(f"{self.key}-layer*"):
            if old.name not in keep:
                old.unlink(missing_ok=True)

    def _read_manifest(self) -> dict | None:
        """The manifest, or None when it does not read as one (not a plain file included)."""
        try:
            with open_plain(self.manifest) as f:
                text = f.read(MANIFEST_BYTES + 1)
            manifest = json.loads(text) if len(text) <= MANIFEST_BYTES else None
            ok = (type(manifest.get("used")) is int and 0 <= manifest["used"] < self.n_boxes
                  and isinstance(manifest.get("sha256"), list) and isinstance(manifest.get("shapes"), list)
                  and len(manifest["shapes"]) == len(manifest["sha256"]))
        except (OSError, ValueError, AttributeError, RecursionError):
            return None
        return manifest if ok else None

    def _read_layer(self, path: Path, shape) -> np.ndarray:
        """The array at `path`: a plain file whose header says `shape` of this solve's numbers,
        and whose size is exactly that (checked before anything is allocated); else ValueError."""
        with open_plain(path) as f:
            version = np.lib.format.read_magic(f)
            if version not in ((1, 0), (2, 0)):
                raise ValueError(f"{path}: .npy format {version}")
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) \
                else np.lib.format.read_array_header_2_0
            stored, fortran, dtype = read_header(f)
            nbytes = math.prod(shape) * self.dtype.itemsize
            if (tuple(stored) != tuple(shape) or fortran or dtype != self.dtype
                    or os.fstat(f.fileno()).st_size - f.tell() != nbytes):
                raise ValueError(f"{path} holds {stored} {dtype}, not {tuple(shape)} {self.dtype}")
            array = np.empty(shape, self.dtype)
            view, got = memoryview(array.reshape(-1).view(np.uint8)), 0
            while got < nbytes:
                n = f.readinto(view[got:])
                if not n:
                    raise ValueError(f"{path} is cut short")
                got += n
        return array

    def latest(self, shapes_of) -> tuple[int, list] | None:
        """(used, arrays) of the last layer written, or None when there is none, or it is damaged
        or not of the shapes `shapes_of(used)` expects (then the solve starts afresh, warned)."""
        if not self.manifest.exists():
            return None
        manifest, arrays = self._read_manifest(), None
        if manifest is not None:
            used, shapes = manifest["used"], [tuple(s) for s in shapes_of(manifest["used"])]
            if [list(s) for s in shapes] == manifest["shapes"]:
                try:
                    arrays = [self._read_layer(self._path(used, i), s) for i, s in enumerate(shapes)]
                except (OSError, ValueError, EOFError, TypeError):
                    pass
        if arrays is None or any(hashlib.sha256(np.ascontiguousarray(a).data).hexdigest() != sha
                                 for a, sha in zip(arrays, manifest["sha256"])):
            warnings.warn(f"checkpoint {self.manifest} is damaged: the solve starts afresh", SolveWarning,
                          stacklevel=3)
            return None
        return used, arrays

    def clear(self) -> None:
        """Remove this solve's files (once its result is out)."""
        for old in self.folder.glob(f"{self.key}-layer*"):
            old.unlink(missing_ok=True)
        self.manifest.unlink(missing_ok=True)


def _lock_file(folder: Path, path: Path) -> int:
    """A descriptor holding the exclusive lock of `path` (made in `folder` if missing, never
    through a link, never truncated). ValueError, naming the path, where the folder cannot be
    written, `path` is not a plain file, or another solve holds it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | SAFE_OPEN, 0o666)
    except OSError as err:
        if path.is_symlink() or path.exists() and not path.is_file():
            raise ValueError(f"argument checkpoint: {path} is not a plain file (a link, FIFO or "
                             "device); remove it") from None
        raise ValueError(f"argument checkpoint: cannot write in {folder} ({err.strerror or err})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"argument checkpoint: {path} is not a plain file (a link, FIFO or "
                             "device); remove it")
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ValueError(f"argument checkpoint: {folder} is in use by another solve of the same game") from None
    except OSError as err:
        os.close(fd)
        raise ValueError(f"argument checkpoint: cannot lock {path} ({err.strerror or err})") from None
    except BaseException:
        os.close(fd)
        raise
    return fd
