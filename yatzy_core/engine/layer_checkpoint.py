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

import fcntl
import hashlib
import json
import os
import warnings
from pathlib import Path

import numpy as np

from ..game.rules import Rules
from ..version import __version__
from .cache import rules_fingerprint

__all__ = ["LayerCheckpoint", "kernel_source_sha256"]

KERNELS = ("layout.py", "kernel.py", "saved_kernel.py", "saved_moments.py")   # what computes the layers


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
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        key = (f"{rules_fingerprint(rules)}-{np.dtype(dtype).name}-b{before}-{'m' if moments else 'v'}"
               f"-{kernel_source_sha256()}")
        self.key = hashlib.sha256(key.encode()).hexdigest()[:16]
        self.manifest = self.folder / f"{self.key}.json"
        self._lock = open(self.folder / f"{self.key}.lock", "w")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            raise ValueError(f"argument checkpoint: {self.folder} is in use by another solve of the same game") from None

    def release(self) -> None:
        """Let another solve use this folder's key."""
        if not self._lock.closed:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()

    def _path(self, used: int, i: int) -> Path:
        return self.folder / f"{self.key}-layer{used}-{i}.npy"

    def _sync(self, path: Path, write) -> None:
        """Write `path` through a temporary file, synced, then renamed into place."""
        part = path.with_name(path.name + f".{os.getpid()}.tmp")
        with open(part, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)

    def save(self, used: int, arrays: list) -> None:
        """Write the finished layer `used` (its arrays), then let every other layer go."""
        sums = []
        for i, array in enumerate(arrays):
            self._sync(self._path(used, i), lambda f, a=array: np.save(f, a))
            sums.append(hashlib.sha256(np.ascontiguousarray(array).data).hexdigest())
        text = json.dumps({"used": used, "shapes": [list(a.shape) for a in arrays], "sha256": sums})
        self._sync(self.manifest, lambda f: f.write(text.encode()))
        folder = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(folder)                      # the renames are on disk before anything is let go
        finally:
            os.close(folder)
        keep = {self._path(used, i).name for i in range(len(arrays))}
        for old in self.folder.glob(f"{self.key}-layer*"):
            if old.name not in keep:
                old.unlink(missing_ok=True)

    def _read_manifest(self) -> dict | None:
        """The manifest, or None when there is none or it does not read as one."""
        try:
            manifest = json.loads(self.manifest.read_text())
            ok = (isinstance(manifest.get("used"), int) and isinstance(manifest.get("sha256"), list)
                  and isinstance(manifest.get("shapes"), list) and len(manifest["shapes"]) == len(manifest["sha256"]))
        except (OSError, ValueError, AttributeError):
            return None
        return manifest if ok else None

    def latest(self, shapes_of) -> tuple[int, list] | None:
        """(used, arrays) of the last layer written, or None when there is none, or it is damaged
        or not of the shapes `shapes_of(used)` expects (then the solve starts afresh, warned)."""
        if not self.manifest.exists():
            return None
        manifest = self._read_manifest()
        good = manifest is not None
        if good:
            try:
                used = manifest["used"]
                arrays = [np.load(self._path(used, i)) for i in range(len(manifest["sha256"]))]
                good = ([list(a.shape) for a in arrays] == manifest["shapes"] == [list(s) for s in shapes_of(used)]
                        and all(hashlib.sha256(np.ascontiguousarray(a).data).hexdigest() == sha
                                for a, sha in zip(arrays, manifest["sha256"])))
            except (OSError, ValueError, EOFError, TypeError):
                good = False
        if not good:
            warnings.warn(f"checkpoint {self.manifest} is damaged: the solve starts afresh", stacklevel=3)
            return None
        return used, arrays

    def clear(self) -> None:
        """Remove this solve's files (once its result is out)."""
        for old in self.folder.glob(f"{self.key}-layer*"):
            old.unlink(missing_ok=True)
        self.manifest.unlink(missing_ok=True)
