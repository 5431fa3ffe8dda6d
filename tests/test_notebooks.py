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
NAME = re.compile(r"^(\d\d)(b?)_[a-z0-9_]+\.ipynb$")   # 06b: a chapter between 06 and 07
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
    """NN_name.ipynb, numbered 01, 02, ... without gaps or repeats; NNb_name.ipynb, a chapter
    added after NN without renumbering the later ones (their pages are linked), follows NN."""
    bad = [p.name for p in NOTEBOOKS if not NAME.match(p.name)]
    assert not bad, f"notebooks must be named NN_lowercase_name.ipynb or NNb_...: {bad}"
    names = [NAME.match(p.name).groups() for p in NOTEBOOKS]
    numbers = [int(n) for n, b in names if not b]
    assert numbers == list(range(1, len(numbers) + 1)), [p.name for p in NOTEBOOKS]
    for i, (n, b) in enumerate(names):
        assert not b or (i and names[i - 1] == (n, "")), f"{NOTEBOOKS[i].name} must follow chapter {n}"


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


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


SOLUTION_BLOCK = re.compile(r"^(:{3,}|`{3,})\{solution\}\s+(\S+)", re.M)
EXERCISE_LABEL = re.compile(r"^(:{3,}|`{3,})\{exercise\}.*\n(?::\w+:.*\n)*?:label:\s*(\S+)", re.M)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_solution_is_marked(path):
    """Each exercise has a solution block, and the code cells that follow a solution block (until
    the next markdown cell or a lab's check, tagged `lab-check`, which the student runs) are tagged
    `solution`: the site folds them with its prose and the student edition leaves them out."""
    cells = load(path)["cells"]
    text = "\n".join(source(c) for c in cells if c["cell_type"] == "markdown")
    exercises = [m.group(2) for m in EXERCISE_LABEL.finditer(text)]
    solved = [m.group(2) for m in SOLUTION_BLOCK.finditer(text)]
    assert exercises and sorted(exercises) == sorted(solved), (path.name, exercises, solved)
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from student_edition import solution_blocks
    finally:
        sys.path.pop(0)
    untagged, in_solution = [], False
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":                     # does it end with a solution block?
            lines = source(cell).rstrip().splitlines()
            in_solution = any(last == len(lines) - 1 for _, last in solution_blocks(source(cell)))
        elif "lab-check" in tags(cell):
            in_solution = False
        elif in_solution and "solution" not in tags(cell):
            untagged.append(index)
    assert not untagged, f"{path.name}: code cells {untagged} follow a solution but are not tagged solution"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_solution_cells_start_collapsed_in_jupyterlab(path):
    """A code cell tagged `solution` opens with its input and output hidden in JupyterLab
    (scripts/clean_notebooks.py sets this and --check fails without it)."""
    open_cells = [i for i, c in enumerate(load(path)["cells"]) if "solution" in tags(c)
                  and c.get("metadata", {}).get("jupyter") != {"source_hidden": True, "outputs_hidden": True}]
    assert not open_cells, f"{path.name}: solution cells {open_cells} open; run scripts/clean_notebooks.py"


def test_the_clean_step_collapses_solutions_once():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import nbformat
        from clean_notebooks import clean
    finally:
        sys.path.pop(0)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["solution"]}),
                                         nbformat.v4.new_code_cell("y = 2")])
    assert clean(nb) is True
    assert nb.cells[0].metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert "jupyter" not in nb.cells[1].metadata
    assert clean(nb) is False                     # idempotent: a second run changes nothing


# How the course was made is no part of it: machine names, run hashes, test and CI talk, notes to
# ourselves. A source's own hardware, quoted from it (Larsson and Sjöberg's Intel Core i5), is not.
TRACES = re.compile(r"\bEPYC\b|\bXeon\b|\bAMD\b|Intel\(R\)|\bcores of an?\b|sha256|\bhash(es)?\b|test suite|"
                    r"\bdoctests?\b|\bCI\b|\bnbval\b|\bTODO\b|\bFIXME\b|not recorded|\bearlier_runs\b", re.I)
SITE_SOURCES = sorted((ROOT / "site").glob("*.md")) + [ROOT / "site" / "references.bib"]


def read_texts(path):
    """What a student reads of a notebook: its markdown, and the text its code cells printed."""
    for index, cell in enumerate(load(path)["cells"]):
        if cell["cell_type"] == "markdown":
            yield index, source(cell)
        for out in cell.get("outputs", []):
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            yield index, "".join(text) if isinstance(text, list) else text


def test_no_traces_of_how_the_course_was_made():
    found = [f"{path.name} cell {i}: {m.group(0)!r}" for path in NOTEBOOKS for i, text in read_texts(path)
             for m in TRACES.finditer(text)]
    found += [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for path in SITE_SOURCES
              for m in TRACES.finditer(path.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)
