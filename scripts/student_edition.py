"""Write the student edition of the course: the notebooks without their solutions.

One source, two editions. The notebooks in notebooks/ are the teacher's edition: each exercise is
followed by its solution. A solution is marked in two ways, and this tool removes both:

- a code cell tagged `solution` goes whole, its outputs with it (nbconvert's
  TagRemovePreprocessor, the tool nbconvert itself uses to drop tagged cells);
- a MyST block ``:::{solution} label`` ... ``:::`` (or a backtick fence) inside a markdown cell
  goes from its opening line to its closing fence; a markdown cell left empty goes too.

The exercises stay, and so does a lab's stub cell (tag `lab-stub`): the function the student
writes, raising NotImplementedError until they do. Why nbconvert and not nbgrader or otter: the
notebooks already mark solutions with a cell tag, which is exactly what TagRemovePreprocessor acts
on; nbgrader and otter need their own markers in every solution and a course database or
assignment config, for a job that is one removal.

Usage, from the repository root:

    .venv/bin/python scripts/student_edition.py OUT                # every notebook into OUT/
    .venv/bin/python scripts/student_edition.py OUT notebooks/05_solving_the_game.ipynb
    .venv/bin/python scripts/student_edition.py OUT --execute      # and run each one: exit 1 on
                                                                   # an error other than a lab stub's
"""
from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import nbformat
from nbconvert.preprocessors import Preprocessor, TagRemovePreprocessor

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = "solution"     # the cell tag of a solution's code
LAB_STUB = "lab-stub"     # the cell tag of a lab's stub, the one cell whose NotImplementedError is expected
OPENER = re.compile(r"^(?P<fence>:{3,}|`{3,})\{(?P<name>solution(?:-start|-end)?)\}")


def solution_blocks(text: str) -> list[tuple[int, int]]:
    """The (first, last) line numbers of each MyST solution block in a markdown cell's text.

    A block ends at the first line holding only its fence character, at least as many as opened
    it (MyST's rule: a `:::` block may hold ```` ``` ```` code, and a longer fence may hold a
    `:::` block). The gated form (`solution-start`/`solution-end`) spans cells: refused."""
    lines, blocks, i = text.splitlines(), [], 0
    while i < len(lines):
        match = OPENER.match(lines[i].lstrip())
        if match is None:
            i += 1
            continue
        if match["name"] != "solution":
            raise ValueError(f"{match['name']}: gated solutions are not supported; use a "
                             f"{{solution}} block and code cells tagged {SOLUTION!r}")
        end = block_end(lines, i, match["fence"])
        blocks.append((i, end))
        i = end + 1
    return blocks


def block_end(lines: list[str], first: int, fence: str) -> int:
    """The line closing the block that `fence` opens on line `first`: a line of only the fence's
    character, at least as many; a `:::{directive}` nested inside (a note in a solution) is
    skipped with its own closing line."""
    depth = 0
    for j in range(first + 1, len(lines)):
        line = lines[j].strip()
        if fence[0] == ":" and re.match(r":{3,}\{", line):
            depth += 1
        elif line and set(line) == {fence[0]} and (depth or len(line) >= len(fence)):
            if depth == 0:
                return j
            depth -= 1
    raise ValueError(f"a solution block opened by {lines[first]!r} is never closed")


def without_solutions(text: str) -> str:
    """A markdown cell's text without its solution blocks (and the blank lines they leave)."""
    lines = text.splitlines()
    for first, last in reversed(solution_blocks(text)):
        del lines[first:last + 1]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


class RemoveSolutionBlocks(Preprocessor):
    """nbconvert preprocessor: drop the solution blocks of markdown cells, and cells left empty."""

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = without_solutions(cell.source)
        nb.cells = [c for c in nb.cells if c.cell_type != "markdown" or c.source.strip()]
        return nb, resources


def student_notebook(nb):
    """The student edition of a teacher's notebook (a new notebook; `nb` is not changed)."""
    nb = copy.deepcopy(nbformat.from_dict(nb))
    nb, _ = TagRemovePreprocessor(remove_cell_tags={SOLUTION}).preprocess(nb, {})
    nb, _ = RemoveSolutionBlocks().preprocess(nb, {})
    return nb


def write_edition(out: Path, paths: list[Path] | None = None) -> list[Path]:
    """Write each notebook's student edition under `out` (same file name); the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths or sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")):
        target = out / path.name
        text = nbformat.writes(student_notebook(nbformat.read(path, as_version=4))) + "\n"
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def run_problems(nb, folder: Path, timeout: int = 1200) -> list[str]:
    """Run a student notebook top to bottom (in place, on a fresh python3 kernel in `folder`);
    every error but the NotImplementedError a lab's stub raises (the traceback leads into a cell
    tagged `lab-stub`)."""
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    stubs = {c.execution_count for c in nb.cells if LAB_STUB in c.metadata.get("tags", [])}
    problems = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.output_type != "error":
                continue
            trace = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(output.traceback))   # no colours
            where = {int(n) for n in re.findall(r"Cell In\[(\d+)\]", trace)}
            if output.ename == "NotImplementedError" and where & stubs:
                continue
            problems.append(f"cell {index}: {output.ename}: {output.evalue}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the student notebooks into")
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="teacher notebooks (default: notebooks/NN_*.ipynb)")
    parser.add_argument("--execute", action="store_true",
                        help="also run each student notebook; exit 1 on any error but a lab stub's")
    args = parser.parse_args(argv)
    failed = False
    for path in write_edition(args.out, args.notebooks or None):
        print(path, file=sys.stderr)
        if args.execute:
            folder = ROOT / "notebooks"        # the teacher's folder: the same relative paths
            for problem in run_problems(nbformat.read(path, as_version=4), folder):
                print(f"{path.name}: {problem}", file=sys.stderr)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
