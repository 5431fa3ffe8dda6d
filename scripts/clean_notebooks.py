"""Execute the teaching notebooks and strip their volatile metadata, never outputs or counts.

The notebooks are committed with their outputs (they should read well on a code-hosting site) and
nbval compares the cells tagged `nbval-check-output` against those stored outputs. nbval skips
a checked cell whose stored execution count is empty, so this tool never touches outputs or
execution counts. It removes only what changes on every run without changing the content:

- `execution` in each cell's metadata (the kernel's timestamps, written by nbclient/JupyterLab),
  and `ExecuteTime` (the same, from the classic ExecuteTime extension);
- `widgets` in the notebook's metadata (saved ipywidgets state, e.g. of a progress bar).

It also keeps one thing true: a code cell tagged `solution` starts collapsed in JupyterLab (cell
metadata `jupyter: {source_hidden: true, outputs_hidden: true}`), so that a student scrolling past an
exercise does not read its answer; a click on the cell's blue bar opens it.

Usage, from the repository root:

    .venv/bin/python scripts/clean_notebooks.py --execute     # run all on fresh kernels, clean, save
    .venv/bin/python scripts/clean_notebooks.py               # only clean
    .venv/bin/python scripts/clean_notebooks.py --check       # exit 1 if any still needs cleaning
    .venv/bin/python scripts/clean_notebooks.py --execute notebooks/03_state_reduction.ipynb

Files are written in nbformat's canonical JSON (sorted keys, indent 1), so a notebook that did not
change produces no diff.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
CELL_KEYS = ("execution", "ExecuteTime")   # volatile cell metadata
NOTEBOOK_KEYS = ("widgets",)               # volatile notebook metadata
SOLUTION = "solution"                      # the tag of a solution's code cell
COLLAPSED = {"source_hidden": True, "outputs_hidden": True}   # JupyterLab's collapsed input and output


def clean(nb) -> bool:
    """Remove the volatile metadata and collapse the solution cells, in place; True if anything
    changed."""
    changed = False
    for key in NOTEBOOK_KEYS:
        changed |= nb.metadata.pop(key, None) is not None
    for cell in nb.cells:
        for key in CELL_KEYS:
            changed |= cell.metadata.pop(key, None) is not None
        if cell.cell_type == "code" and SOLUTION in cell.metadata.get("tags", []):
            view = cell.metadata.setdefault("jupyter", {})
            changed |= any(view.get(key) is not True for key in COLLAPSED)
            view.update(COLLAPSED)
    return changed


def execute(nb, path: Path, timeout: int = 600) -> float:
    """Run the notebook top to bottom on a fresh python3 kernel in its own folder; seconds taken."""
    from nbclient import NotebookClient

    start = time.perf_counter()
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks to process (default: notebooks/*.ipynb)")
    parser.add_argument("--execute", action="store_true", help="execute each notebook first")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if any notebook holds volatile metadata "
                             "or an open solution cell")
    args = parser.parse_args(argv)
    if args.execute and args.check:
        parser.error("--execute and --check exclude each other")
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    dirty = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if args.execute:
            print(f"{path.name}: executed in {execute(nb, path):.1f} s", file=sys.stderr)
        changed = clean(nb)
        if args.check:
            if changed:
                dirty.append(path)
            continue
        nbformat.write(nb, path)
    for path in dirty:
        print(f"{path}: volatile metadata or an open solution cell; run scripts/clean_notebooks.py",
              file=sys.stderr)
    return 1 if dirty else 0


if __name__ == "__main__":
    sys.exit(main())
