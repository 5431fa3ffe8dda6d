"""The solved-table cache is keyed by the code that computes values: a table written by other code
(an older checkout, a kernel edited since) is never read, though the package version is the same."""
import shutil

import numpy as np
import pytest

from yatzy_core.engine import cache, code_key as code_key_module
from yatzy_core.engine.cache import CacheError, load, save
from yatzy_core.engine.code_key import PACKAGE, code_key, value_code_sha256
from yatzy_core.game.rules import Rules
from yatzy_core.game.scoring import Box, make_scorer

TINY = Rules("tiny-key", (Box("chance", make_scorer("chance"), max_score=12),), n_dice=2, upper_bonus=0)


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The package's sources, copied (no caches): what a checkout of other code would hold."""
    root = tmp_path_factory.mktemp("src") / "yatzy_core"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    return root


def _edit(path, change):
    data = bytearray(path.read_bytes())
    original = bytes(data)
    change(data)
    path.write_bytes(bytes(data))
    return original


def test_one_byte_of_a_kernel_changes_the_key(copy):
    assert value_code_sha256(copy) == value_code_sha256() and code_key() == value_code_sha256()[:12]
    kernel = copy / "engine" / "compiled" / "kernel.py"
    original = _edit(kernel, lambda data: data.__setitem__(-1, ord(" ")))   # its final newline, a space
    try:
        assert value_code_sha256(copy) != value_code_sha256()
    finally:
        kernel.write_bytes(original)
    assert value_code_sha256(copy) == value_code_sha256()


@pytest.mark.parametrize("where, counts", [("game/scoring.py", True), ("objectives/targets.py", True),
                                           ("engine/solver.py", True), ("ui/widgets.py", False),
                                           ("advice/advisor.py", False)])
def test_only_the_value_code_is_keyed(copy, where, counts):
    """game/, engine/ and objectives/ compute stored numbers; the layers above only read them."""
    path = copy / where
    original = _edit(path, lambda data: data.extend(b"# an edit\n"))
    try:
        assert (value_code_sha256(copy) != value_code_sha256()) is counts
    finally:
        path.write_bytes(original)


def test_a_new_value_module_changes_the_key(copy):
    added = copy / "engine" / "compiled" / "new_kernel.py"
    added.write_text("")
    try:
        assert value_code_sha256(copy) != value_code_sha256()
    finally:
        added.unlink()


def test_a_table_of_other_code_is_never_read(private_cache, monkeypatch):
    """Written under another code key: its name differs (not looked at), and read by its path
    it is refused; the table is solved again and gives the right values."""
    solution = cache.get_solution(TINY, progress=False)
    old = cache.cache_path(TINY)
    assert old.exists() and f"-{code_key()}" in old.name
    monkeypatch.setattr(cache, "code_key", lambda: "0123456789ab")
    assert cache.cache_path(TINY) != old
    with pytest.raises(CacheError, match="written by other code"):
        load(old, TINY)
    again = cache.get_solution(TINY, progress=False)
    assert np.array_equal(again.values, solution.values)
    assert cache.cache_path(TINY).exists()


def test_the_code_key_is_computed_once_a_process(monkeypatch):
    calls = []
    monkeypatch.setattr(code_key_module, "value_code_sha256", lambda: calls.append(1) or "f" * 64)
    code_key.cache_clear()
    try:
        assert [code_key(), code_key()] == ["f" * 12] * 2 and calls == [1]
    finally:
        code_key.cache_clear()


def test_a_file_without_a_code_key_is_refused(tmp_path, monkeypatch):
    """A table written before the key existed (same version, same format) is not trusted."""
    solution = cache.solve(TINY, progress=False)
    path = save(solution, tmp_path / "old.npz")
    with np.load(path) as data:
        fields = {k: data[k] for k in data.files if k != "code"}
    np.savez(path, **fields)
    with pytest.raises(CacheError, match="written by other code"):
        load(path, TINY)
