"""Write the student edition of the course: the notebooks without their solutions.

One source, two editions. The notebooks in notebooks/ are the teacher's edition: each exercise is
followed by its solution. A solution is marked in two ways, and this tool removes both:

- a code cell tagged `solution` goes whole, its outputs with it (a tag written as a string, or
  in capitals, counts: Jupyter and myst-nb read it so);
- a `{solution}` directive inside a markdown cell goes from its opening line to its closing fence,
  in every form MyST renders as one (```` ``` ````, `~~~` or `:::`, a space before the brace,
  `{Solution}`, inside another directive), found by MyST's own parser (myst-parser's markdown-it
  with the site's extensions), not by a pattern; a markdown cell left empty goes too.

The exercises stay, and so does a lab's stub cell (tag `lab-stub`): the function the student
writes, raising NotImplementedError until they do. What the student must run shows no teacher's
output: the stub, the check (tag `lab-check`) and any cell reading what the stub defines are
cleared. A notebook that cannot be read, or a solution block never closed, stops the tool with one
line (exit 2). Why not nbgrader or otter: the notebooks already mark solutions with a cell tag and
a directive; nbgrader and otter need their own markers in every solution and a course database or
assignment config, for a job that is one removal.

Usage, from the repository root:

    .venv/bin/python scripts/student_edition.py OUT                # every notebook into OUT/
    .venv/bin/python scripts/student_edition.py OUT notebooks/05_solving_the_game.ipynb
    .venv/bin/python scripts/student_edition.py OUT --execute      # and run each one: exit 1 on
                                                                   # an error other than a lab stub's
"""
from __future__ import annotations

import argparse
import ast
import copy
import re
import sys
from functools import lru_cache
from pathlib import Path

import nbformat
from nbconvert.preprocessors import Preprocessor

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = "solution"     # the cell tag of a solution's code (and the directive of a solution's prose)
LAB_STUB = "lab-stub"     # the cell tag of a lab's stub, the one cell whose NotImplementedError is expected
LAB_CHECK = "lab-check"   # the cell tag of a lab's check, whose stored output is the teacher's
GATED = {"solution-start", "solution-end"}
MYST_EXTENSIONS = {"colon_fence", "dollarmath", "amsmath"}   # as site/conf.py's myst_enable_extensions


class EditionError(ValueError):
    """A teacher's notebook the edition cannot be written from safely; one line says why."""


def tags(cell) -> list[str]:
    """A cell's tags as a list, lower case: a single tag written as a string counts too (Jupyter
    shows it, myst-nb reads it), so `"tags": "solution"` is a solution."""
    found = cell.get("metadata", {}).get("tags", [])
    found = [found] if isinstance(found, str) else found if isinstance(found, list) else []
    return [t.lower() for t in found if isinstance(t, str)]


@lru_cache(maxsize=1)
def _parser():
    """MyST's own markdown parser (myst-parser, which myst-nb renders the site with)."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser
    return create_md_parser(MdParserConfig(enable_extensions=MYST_EXTENSIONS), RendererHTML)


def _directive(token) -> str | None:
    """The directive a fence opens, lower case as docutils looks it up (`{Solution}` is `solution`),
    read as MyST reads it: the first word of the info string, in braces; None if no directive."""
    parts = (token.info or "").strip().split(maxsplit=1)
    if parts and parts[0].startswith("{") and parts[0].endswith("}"):
        return parts[0][1:-1].strip().lower()
    return None


def _closed(lines: list[str], token) -> bool:
    """True if the fence's last line closes it (markdown-it runs an unclosed fence to the end)."""
    last = lines[token.map[1] - 1].strip() if token.map[1] - 1 < len(lines) else ""
    mark = token.markup[0]
    return token.map[1] - token.map[0] > 1 and len(last) >= len(token.markup) and set(last) == {mark}


def solution_blocks(text: str, offset: int = 0) -> list[tuple[int, int]]:
    r"""The (first, last) line numbers of each solution block in a markdown cell's text, found by
    MyST's parser: any fence (```` ``` ````, `~~~`, `:::`, with or without a space before the
    brace, any case) that MyST renders as the `solution` directive, nested directives included.

    >>> solution_blocks("Try it.\n\n::: {Solution} ex-1\nSix.\n:::\n\n~~~{solution}\nSeven.\n~~~")
    [(2, 4), (6, 8)]

    EditionError if a solution block is never closed (MyST would run it to the end of the cell)
    or is sphinx-exercise's gated form, which spans cells."""
    lines, blocks = text.splitlines(), []
    for token in _parser().parse(text):
        name = _directive(token) if token.type in ("fence", "colon_fence") and token.map else None
        if name is None:
            continue
        first, last = token.map[0], token.map[1] - 1
        if name in GATED:
            raise EditionError(f"line {offset + first + 1}: {{{name}}}: gated solutions are not supported; "
                               f"use a {{solution}} block and code cells tagged {SOLUTION!r}")
        if name == SOLUTION:
            if not _closed(lines, token):
                raise EditionError(f"line {offset + first + 1}: a solution block opened by "
                                   f"{lines[first].strip()!r} is never closed")
            blocks.append((offset + first, offset + last))
        else:                                     # a solution inside a note or an exercise
            blocks += solution_blocks(token.content, offset + first + 1)
    return blocks


def without_solutions(text: str) -> str:
    """A markdown cell's text without its solution blocks (and the blank lines they leave)."""
    lines = text.splitlines()
    for first, last in sorted(set(solution_blocks(text)), reverse=True):
        del lines[first:last + 1]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


class RemoveSolutionBlocks(Preprocessor):
    """nbconvert preprocessor: drop the solution blocks of markdown cells, and cells left empty."""

    def preprocess(self, nb, resources):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "markdown":
                try:
                    cell.source = without_solutions(cell.source)
                except EditionError as e:
                    raise EditionError(f"cell {index}: {e}") from None
        nb.cells = [c for c in nb.cells if c.cell_type != "markdown" or c.source.strip()]
        return nb, resources


def _bound(code: str) -> set[str]:
    """The names a code cell binds at its top level (its functions, classes, assignments)."""
    try:
        tree = ast.parse("\n".join(l for l in code.splitlines() if not l.lstrip().startswith(("%", "!"))))
    except SyntaxError:
        return set()
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _read(code: str) -> set[str]:
    try:
        tree = ast.parse("\n".join(l for l in code.splitlines() if not l.lstrip().startswith(("%", "!"))))
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def clear_student_outputs(nb) -> None:
    """Clear the outputs of every cell whose output is the student's to make: a lab's stub and
    check, and any later code cell that reads what a stub defines (the teacher's "all 5 checks
    passed" under a stub still raising NotImplementedError would tell a student the wrong thing)."""
    theirs: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell_tags = tags(cell)
        if LAB_STUB in cell_tags:
            theirs |= _bound(cell.source)
        if LAB_STUB in cell_tags or LAB_CHECK in cell_tags or _read(cell.source) & theirs:
            cell.outputs, cell.execution_count = [], None


def _is_solution(cell) -> bool:
    return SOLUTION in tags(cell)


def gate(text: str) -> str | None:
    """The teacher's site: a markdown cell's text whose last block is a `{solution}` block, with
    that block opened as sphinx-exercise's gated `{solution-start}` (its options kept, its prose
    after it), so that the code cells that follow and a `{solution-end}` fold with the prose. None
    if the cell does not end with a solution block."""
    lines = text.rstrip().splitlines()
    blocks = solution_blocks(text)
    if not blocks or blocks[-1][1] != len(lines) - 1:
        return None
    first, last = blocks[-1]
    fence = re.match(r"\s*(:{3,}|`{3,}|~{3,})", lines[first]).group(1)
    options = first + 1
    while options < last and re.match(r"\s*:[\w-]+:", lines[options]):
        options += 1
    opener = re.sub(r"\{\s*solution\s*\}", "{solution-start}", lines[first], count=1, flags=re.I)
    return "\n".join(lines[:first] + [opener, *lines[first + 1:options], fence] + lines[options:last])


def fold_solutions(stem: str, cells: list[dict]) -> list[dict]:
    """The teacher's site: each solution's code cells (tag `solution`) and their outputs inside its
    folded block, closed until clicked: the `{solution}` block ending the markdown cell before them
    is gated around them. A solution cell with no such block before it is folded on its own
    (myst-nb's hide-cell)."""
    def is_solution(i: int) -> bool:
        return i < len(cells) and cells[i]["cell_type"] == "code" and _is_solution(cells[i])

    folded, gated = [], False
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and is_solution(i + 1) and gate(source) is not None:
            cell, gated = {**cell, "source": gate(source)}, True
        elif is_solution(i) and not gated:
            cell = {**cell, "metadata": {**cell["metadata"], "tags": [*tags(cell), "hide-cell"]}}
        folded.append(cell)
        if gated and is_solution(i) and not is_solution(i + 1):
            folded.append({"cell_type": "markdown", "id": f"{stem}-solution-end-{i}",
                           "metadata": {}, "source": ":::{solution-end}\n:::"})
            gated = False
    return folded


def student_notebook(nb):
    """The student edition of a teacher's notebook (a new notebook; `nb` is not changed)."""
    nb = copy.deepcopy(nbformat.from_dict(nb))
    nb.cells = [c for c in nb.cells if not _is_solution(c)]
    for cell in nb.cells:                       # a tag written as a string, written as a list
        if isinstance(cell.get("metadata", {}).get("tags"), str):
            cell.metadata.tags = [cell.metadata.tags]
    nb, _ = RemoveSolutionBlocks().preprocess(nb, {})
    clear_student_outputs(nb)
    return nb


def read_notebook(path: Path):
    """A teacher's notebook; EditionError in one line if it cannot be read as one."""
    try:
        nb = nbformat.reads(Path(path).read_text(encoding="utf-8"), as_version=4)
    except (OSError, UnicodeDecodeError) as e:
        raise EditionError(f"cannot read it ({type(e).__name__}: {e})") from None
    except Exception as e:  # noqa: BLE001 (nbformat raises JSON, validation and key errors alike)
        raise EditionError(f"not a notebook ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})") from None
    cells = nb.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) and "cell_type" in c and "source" in c
                                               for c in cells):
        raise EditionError("not a notebook (its cells are not a list of cells with a type and a source)")
    return nb


def write_edition(out: Path, paths: list[Path] | None = None) -> list[Path]:
    """Write each notebook's student edition under `out` (same file name); the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths or sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")):
        target = out / path.name
        try:
            text = nbformat.writes(student_notebook(read_notebook(path))) + "\n"
        except EditionError as e:
            raise EditionError(f"{path}: {e}") from None
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
    try:
        written = write_edition(args.out, args.notebooks or None)
    except (EditionError, OSError) as e:
        print(f"student_edition: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(path, file=sys.stderr)
        if args.execute:
            folder = ROOT / "notebooks"        # the teacher's folder: the same relative paths
            for problem in run_problems(nbformat.read(path, as_version=4), folder):
                print(f"{path.name}: {problem}", file=sys.stderr)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
