"""The committed notebooks are fit for nbval: numbered in sequence, executed top to bottom, and every
cell tagged `nbval-check-output` holds the output nbval compares against (a tag, not a
`# NBVAL_CHECK_OUTPUT` comment: the reader's code carries no test marker).

nbval skips a checked cell whose stored execution count or outputs are missing, and would then
pass whatever the code prints; these tests make that a failure. nbval itself (run on notebooks/
with --nbval-lax) re-executes the notebooks and compares the checked cells.
"""
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHECK = "nbval-check-output"   # the cell tag nbval --nbval-lax compares
NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")
MAX_BYTES = 2_000_000


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def checked_cells(nb):
    return [c for c in code_cells(nb) if CHECK in c.get("metadata", {}).get("tags", [])]


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 5, [p.name for p in NOTEBOOKS]


def test_named_in_sequence():
    """NN_name.ipynb, numbered 01, 02, ... without gaps or repeats."""
    bad = [p.name for p in NOTEBOOKS if not NAME.match(p.name)]
    assert not bad, f"notebooks must be named NN_lowercase_name.ipynb: {bad}"
    numbers = [int(NAME.match(p.name).group(1)) for p in NOTEBOOKS]
    assert numbers == list(range(1, len(NOTEBOOKS) + 1)), [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_has_checked_cells_with_stored_output(path):
    nb = load(path)
    checked = checked_cells(nb)
    assert checked, f"{path.name} has no cell tagged {CHECK}: a wrong number would not fail CI"
    marked = [i for i, c in enumerate(code_cells(nb)) if "NBVAL" in source(c)]
    assert not marked, f"{path.name}: nbval markers as comments in code cells {marked} (use the cell tag)"
    for cell in checked:
        head = source(cell).splitlines()[:1]
        assert cell.get("execution_count"), f"{path.name}: checked cell without execution count {head}"
        assert cell.get("outputs"), f"{path.name}: checked cell without stored output {head}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_executed_top_to_bottom(path):
    """Every code cell ran once, in order, on one fresh kernel, without errors."""
    cells = [c for c in code_cells(load(path)) if source(c).strip()]
    counts = [c.get("execution_count") for c in cells]
    assert counts == list(range(1, len(cells) + 1)), f"{path.name}: execution counts {counts}"
    errors = [o.get("ename") for c in cells for o in c.get("outputs", []) if o["output_type"] == "error"]
    assert not errors, f"{path.name} was committed with errors: {errors}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_checked_cells_are_plain_text(path):
    """Checked outputs are deterministic text: no figures, widgets or stderr (progress bars)."""
    for cell in checked_cells(load(path)):
        for out in cell["outputs"]:
            assert out["output_type"] in ("stream", "execute_result"), (path.name, out["output_type"])
            assert out.get("name", "stdout") == "stdout", f"{path.name}: stderr in a checked cell"
            assert set(out.get("data", {})) <= {"text/plain"}, (path.name, set(out["data"]))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_clean_and_small(path):
    """No volatile metadata (scripts/clean_notebooks.py removes it) and under 2 MB."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from clean_notebooks import CELL_KEYS, NOTEBOOK_KEYS
    finally:
        sys.path.pop(0)
    nb = load(path)
    assert not set(nb.get("metadata", {})) & set(NOTEBOOK_KEYS), path.name
    dirty = [i for i, c in enumerate(nb["cells"]) if set(c.get("metadata", {})) & set(CELL_KEYS)]
    assert not dirty, f"{path.name}: run scripts/clean_notebooks.py (cells {dirty})"
    assert path.stat().st_size < MAX_BYTES, f"{path.name} is {path.stat().st_size:,} bytes"
