"""The student edition (scripts/student_edition.py): the teacher's notebooks without a trace of
their solutions, with every exercise and lab stub still there, and still runnable.

Runnable is checked two ways: for every notebook, no cell the student keeps uses a name that only
a removed solution cell defined (a static check, by `ast`); and one student notebook is run top
to bottom on a kernel. `scripts/student_edition.py OUT --execute` runs them all.
"""
from __future__ import annotations

import ast
import builtins
import json
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from student_edition import (LAB_STUB, SOLUTION, run_problems, solution_blocks,   # noqa: E402
                             student_notebook, without_solutions, write_edition)
sys.path.pop(0)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb"))


def tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def output_text(output) -> str:
    """What an output shows as text: a stream, a result's or display's text forms, an error."""
    if output["output_type"] == "stream":
        return output["text"]
    if output["output_type"] == "error":
        return output["evalue"]
    return "\n".join(value if isinstance(value, str) else json.dumps(value)
                     for key, value in output.get("data", {}).items() if key.startswith("text/"))


def solution_texts(nb) -> list[str]:
    """Every solution of a teacher's notebook, as text: code cells tagged `solution` (source and
    outputs) and the MyST solution blocks of its markdown cells."""
    texts = []
    for cell in nb.cells:
        if SOLUTION in tags(cell):
            texts += [cell.source, *(output_text(o) for o in cell.get("outputs", []))]
        elif cell.cell_type == "markdown":
            lines = cell.source.splitlines()
            texts += ["\n".join(lines[a:b + 1]) for a, b in solution_blocks(cell.source)]
    return texts


def everything(nb) -> str:
    """All a notebook holds as text: each cell's source and outputs."""
    return "\n".join(cell.source + "\n" + "\n".join(output_text(o) for o in cell.get("outputs", []))
                     for cell in nb.cells)


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> dict[str, nbformat.NotebookNode]:
    out = tmp_path_factory.mktemp("student")
    written = write_edition(out)
    assert [p.name for p in written] == [p.name for p in NOTEBOOKS]
    return {p.name: nbformat.read(p, as_version=4) for p in written}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_solution_source_or_output_reaches_the_student(path, edition):
    """Each line of each solution (code, printed output, prose) that the teacher's notebook does
    not also say outside its solutions is absent from the student's notebook."""
    teacher, student = nbformat.read(path, as_version=4), edition[path.name]
    public = everything(student_notebook(teacher))
    kept = {line.strip() for cell in teacher.cells if SOLUTION not in tags(cell)
            for line in (without_solutions(cell.source) if cell.cell_type == "markdown" else cell.source).splitlines()
            + [l for o in cell.get("outputs", []) for l in output_text(o).splitlines()]}
    texts = solution_texts(teacher)
    assert texts, f"{path.name} has no solution"
    lines = {line.strip() for line in public.splitlines()}
    leaked = [line.strip() for text in texts for line in text.splitlines()
              if sum(ch.isalnum() for ch in line) > 2 and line.strip() not in kept
              and (line.strip() in lines or len(line.strip()) >= 20 and line.strip() in public)]
    assert not leaked, f"{path.name}: {leaked[:5]}"
    assert everything(student) == public                             # the file as written
    assert not [c for c in student.cells if SOLUTION in tags(c)]
    assert "{solution}" not in everything(student)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_exercises_and_labs_remain(path, edition):
    """Every exercise block, lab stub and non-solution cell of the teacher's notebook is in the
    student's, unchanged and in order (markdown cells lose their solution blocks only)."""
    teacher, student = nbformat.read(path, as_version=4), edition[path.name]
    text = everything(teacher)
    exercises = text.count("{exercise}")
    assert exercises and everything(student).count("{exercise}") == exercises
    expected = [(c.id, without_solutions(c.source) if c.cell_type == "markdown" else c.source)
                for c in teacher.cells if SOLUTION not in tags(c)]
    assert [(c.id, c.source) for c in student.cells] == [(i, s) for i, s in expected if s.strip()]
    stubs = [c.id for c in teacher.cells if LAB_STUB in tags(c)]
    assert stubs == [c.id for c in student.cells if LAB_STUB in tags(c)]


def test_a_solution_block_ends_at_its_own_fence():
    text = ("Before.\n\n::::{solution} ex-1\n:class: dropdown\n\n```python\nx = 1\n```\n\n"
            ":::{note}\nA note.\n:::\nStill the solution.\n::::\n\nAfter.\n\n"
            "```{solution} ex-2\nSecond.\n```\nEnd.")
    assert without_solutions(text) == "Before.\n\nAfter.\n\nEnd."
    with pytest.raises(ValueError, match="never closed"):
        without_solutions(":::{solution} ex-1\nno end")
    with pytest.raises(ValueError, match="gated"):
        without_solutions(":::{solution-start} ex-1\n:::")


BUILTINS = set(dir(builtins)) | {"display", "get_ipython"}


def names(code: str) -> tuple[set[str], set[str]]:
    """The names a cell binds and the names it reads (IPython magics skipped)."""
    tree = ast.parse("\n".join(l for l in code.splitlines() if not l.lstrip().startswith(("%", "!"))))
    bound, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (bound if isinstance(node.ctx, (ast.Store, ast.Del)) else read).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            if not isinstance(node, ast.ClassDef):
                bound |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        elif isinstance(node, ast.Lambda):
            bound |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound, read


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_kept_cell_needs_a_removed_solution(path):
    """A cell the student keeps reads no name that only a solution cell before it defined: the
    student edition runs top to bottom (a solution's import, such as chapter 6's players, lives in
    the solution, and no later cell leans on it)."""
    teacher = nbformat.read(path, as_version=4)
    public, private, missing = set(BUILTINS), set(), []
    for index, cell in enumerate(teacher.cells):
        if cell.cell_type != "code":
            continue
        bound, read = names(cell.source)
        if SOLUTION in tags(cell):
            private |= bound
            continue
        missing += [f"cell {index} reads {n}" for n in sorted((read - bound - public) & private)]
        public |= bound
    assert not missing, f"{path.name}: {missing}"


def test_a_student_notebook_runs_top_to_bottom(edition, tmp_path):
    """Chapter 2's student edition on a fresh kernel: no error (a lab stub's NotImplementedError
    is the one error allowed, and only where the traceback leads into a `lab-stub` cell)."""
    nb = edition["02_counting_with_sympy.ipynb"]
    assert run_problems(nb, ROOT / "notebooks") == []
    assert sum(c.cell_type == "code" for c in nb.cells) > 10


def test_only_a_lab_stubs_error_is_allowed(tmp_path):
    cells = [nbformat.v4.new_code_cell("def f():\n    raise NotImplementedError('write f')", id="stub"),
             nbformat.v4.new_code_cell("f()", id="check"),
             nbformat.v4.new_code_cell("raise NotImplementedError('not a lab')", id="other")]
    cells[0].metadata["tags"] = [LAB_STUB]
    problems = run_problems(nbformat.v4.new_notebook(cells=cells), tmp_path)
    assert problems == ["cell 2: NotImplementedError: not a lab"]


def imports(code: str) -> set[str]:
    tree = ast.parse("\n".join(l for l in code.splitlines() if not l.lstrip().startswith(("%", "!"))))
    return {(a.asname or a.name).split(".")[0] for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom)) for a in node.names}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_kept_cell_imports_a_solutions_answer(path):
    """A name that only solution cells use and that a solution names as its answer (chapter 6's
    `NeverRerolls` and `RerollsOnce`, the players its exercise asks for) is imported inside the
    solution, not in a cell the student keeps."""
    teacher = nbformat.read(path, as_version=4)
    kept = [c for c in teacher.cells if c.cell_type == "code" and SOLUTION not in tags(c)]
    solutions = [c for c in teacher.cells if c.cell_type == "code" and SOLUTION in tags(c)]
    read_in_open = set().union(*(names(c.source)[1] for c in kept))
    read_in_solutions = set().union(*(names(c.source)[1] for c in solutions))
    prose = "\n".join(solution_texts(teacher))
    answers = {n for c in kept for n in imports(c.source)
               if n in read_in_solutions and n not in read_in_open and f"`{n}`" in prose}
    assert not answers, f"{path.name}: {sorted(answers)} imported where the student reads it"
