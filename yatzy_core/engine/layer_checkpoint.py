"""Finished layers of a long saved-roll solve kept on disk, so that a stopped solve resumes.

The whole Maxi Yatzy solve with second moments runs for hours; a process that is stopped (a
machine given back, a session's end) would lose every layer it finished. With a checkpoint
folder, `solve_saved` writes each finished layer there and lets the one before it go; a new
solve of the same game (rules fingerprint, table type, `before`, moments) starts from the
last layer written. A layer is written to temporary files, then renamed into place, and its
manifest (shapes and sha256 of the bytes) is renamed last: a file cut short by a full disk
or a killed process is never read, and a damaged one fails its checksum and is ignored, so a
resumed solve gives the same numbers as one that never stopped.

>>> import tempfile
>>> from yatzy_core.game.rules import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> game = Rules("chance-twice", (Box("a", total), Box("b", total)), upper_bonus=0, n_dice=1,
...              rolls_per_turn=2, saved_rolls=True)
>>> folder = LayerCheckpoint(tempfile.mkdtemp(), game, np.float64, before=0, moments=False)
>>> folder.save(1, [np.array([[4.5, 4.66]])])
>>> used, arrays = folder.latest()
>>> used, arrays[0].tolist()
(1, [[4.5, 4.66]])
"""
from __future__ import annotations

import hashlib
import json
import os
import warnings
from pathlib import Path

import numpy as np

from ..game.rules import Rules
from .cache import rules_fingerprint

__all__ = ["LayerCheckpoint"]


class LayerCheckpoint:
    """Layers of one solve (rules, dtype, before, moments) in `folder`; at most one layer kept."""

    def __init__(self, folder, rules: Rules, dtype, before: int, moments: bool):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        key = f"{rules_fingerprint(rules)}-{np.dtype(dtype).name}-b{before}-{'m' if moments else 'v'}"
        self.key = hashlib.sha256(key.encode()).hexdigest()[:16]
        self.manifest = self.folder / f"{self.key}.json"

    def _path(self, used: int, i: int) -> Path:
        return self.folder / f"{self.key}-layer{used}-{i}.npy"

    def save(self, used: int, arrays: list) -> None:
        """Write the finished layer `used` (its arrays), then let the layer before it go."""
        sums = []
        for i, array in enumerate(arrays):
            part = self._path(used, i).with_suffix(".tmp")
            with open(part, "wb") as f:
                np.save(f, array)
                f.flush()
                os.fsync(f.fileno())
            os.replace(part, self._path(used, i))
            sums.append(hashlib.sha256(np.ascontiguousarray(array).data).hexdigest())
        old = self._read_manifest()
        part = self.manifest.with_suffix(".tmp")
        part.write_text(json.dumps({"used": used, "shapes": [list(a.shape) for a in arrays], "sha256": sums}))
        os.replace(part, self.manifest)
        if old is not None and old["used"] != used:
            for i in range(len(old["sha256"])):
                self._path(old["used"], i).unlink(missing_ok=True)

    def _read_manifest(self) -> dict | None:
        try:
            return json.loads(self.manifest.read_text())
        except (OSError, ValueError):
            return None

    def latest(self) -> tuple[int, list] | None:
        """(used, arrays) of the last layer written, or None when there is none or it is damaged
        (then the solve starts afresh, with a warning)."""
        manifest = self._read_manifest()
        if manifest is None:
            return None
        try:
            arrays = [np.load(self._path(manifest["used"], i)) for i in range(len(manifest["sha256"]))]
            good = all(list(a.shape) == shape and hashlib.sha256(np.ascontiguousarray(a).data).hexdigest() == sha
                       for a, shape, sha in zip(arrays, manifest["shapes"], manifest["sha256"]))
        except (OSError, ValueError, KeyError, TypeError):
            good = False
        if not good:
            warnings.warn(f"checkpoint {self.manifest} is damaged: the solve starts afresh", stacklevel=3)
            return None
        return int(manifest["used"]), arrays

    def clear(self) -> None:
        """Remove this solve's files (once its result is out)."""
        manifest = self._read_manifest()
        if manifest is not None:
            for i in range(len(manifest["sha256"])):
                self._path(manifest["used"], i).unlink(missing_ok=True)
        self.manifest.unlink(missing_ok=True)
