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
from student_edition import (LAB_CHECK, LAB_STUB, SOLUTION, EditionError, fold_solutions, main,   # noqa: E402
                             run_problems, solution_blocks, student_notebook, without_solutions,
                             write_edition)
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
    with pytest.raises(EditionError, match="never closed"):
        without_solutions(":::{solution} ex-1\nno end")
    with pytest.raises(EditionError, match="gated"):
        without_solutions(":::{solution-start} ex-1\n:::")


HOSTILE = {   # every form MyST renders as the solution directive; each hides the word "SECRET"
    "a space before the brace": "::: {solution} ex-1\nSECRET 252\n:::",
    "a backtick fence with a space": "``` {solution} ex-1\nSECRET 252\n```",
    "a tilde fence": "~~~{solution}\nSECRET 252\n~~~",
    "a capital letter": ":::{Solution} ex-1\n:class: dropdown\nSECRET 252\n:::",
    "inside a note": "::::{note}\nKept.\n:::{solution}\nSECRET 252\n:::\n::::",
    "inside an exercise, longer fences": "`````{exercise}\nKept.\n````{solution}\nSECRET\n````\n`````",
    "indented": "  :::{solution}\n  SECRET 252\n  :::",
}


def hostile_notebook(markdown: str, tags) -> nbformat.NotebookNode:
    cells = [nbformat.v4.new_markdown_cell("Exercise: add.\n\n" + markdown, id="prose"),
             nbformat.v4.new_code_cell("print('SECRET code')", id="code"),
             nbformat.v4.new_code_cell("1 + 1", id="open")]
    cells[1].metadata["tags"] = tags
    return nbformat.v4.new_notebook(cells=cells)


@pytest.mark.parametrize("form", HOSTILE)
def test_every_form_myst_renders_as_a_solution_is_removed(form):
    """Found by MyST's parser: each of these renders as a {solution} on the site (docutils looks a
    directive up in lower case; a fence's info is stripped), and none reaches the student."""
    student = student_notebook(hostile_notebook(HOSTILE[form], ["solution"]))
    assert "SECRET" not in everything(student), form
    assert [c.id for c in student.cells] == ["prose", "open"]
    assert student.cells[0].source.startswith("Exercise: add.")
    assert ("Kept." in student.cells[0].source) == ("Kept." in HOSTILE[form])


@pytest.mark.parametrize("tags", ["solution", ["Solution"], ["hide-input", "solution"]])
def test_a_solution_tag_as_a_string_or_in_capitals_removes_the_cell(tags, tmp_path):
    """`"tags": "solution"` is not valid nbformat, but Jupyter keeps it and myst-nb reads it."""
    nb = hostile_notebook("Nothing hidden.", ["solution"])
    nb.cells[1].metadata["tags"] = tags                     # after nbformat's validation
    nb.cells[2].metadata["tags"] = "lab-check"
    (tmp_path / "in.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    assert main([str(tmp_path / "out"), str(tmp_path / "in.ipynb")]) == 0
    student = nbformat.read(tmp_path / "out" / "in.ipynb", as_version=4)
    assert [c.id for c in student.cells] == ["prose", "open"] and "SECRET" not in everything(student)
    assert student.cells[1].metadata.tags == ["lab-check"]


def test_a_fence_that_is_not_a_solution_stays():
    text = "```python\n:::{solution}\n```\n\n:::{note}\n{solution} in words\n:::\n\n``` {solutions}\nx\n```"
    assert solution_blocks(text) == [] and without_solutions(text) == text


@pytest.mark.parametrize("text, message", [
    (":::{solution} ex-1\nno end", "line 1: a solution block opened by ':::{solution} ex-1' is never closed"),
    ("Text.\n\n```{solution}\nno end\n``", "line 3: a solution block opened by '```{solution}' is never closed"),
    (":::{solution-start} ex-1\n:::", "line 1: {solution-start}: gated solutions are not supported"),
])
def test_an_unclosed_or_gated_block_is_refused_in_one_line(text, message):
    with pytest.raises(EditionError) as raised:
        without_solutions(text)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


@pytest.mark.parametrize("content, message", [
    ('{"cells": [', "not a notebook (NotJSONError"),
    ('{"cells": 3, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}', "not a notebook"),
    (None, "cell 0: line 3: a solution block opened by ':::{solution}' is never closed"),
])
def test_the_command_says_what_is_wrong_in_one_line_and_exits_2(tmp_path, capsys, content, message):
    path = tmp_path / "broken.ipynb"
    if content is None:
        content = nbformat.writes(hostile_notebook(":::{solution}\nSECRET", ["solution"]))
    path.write_text(content, encoding="utf-8")
    assert main([str(tmp_path / "out"), str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"student_edition: {path}: {message}"), err
    assert not (tmp_path / "out" / "broken.ipynb").exists()


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if '"lab-stub"' in p.read_text(encoding="utf-8")],
                         ids=lambda p: p.name)
def test_what_the_student_must_run_shows_no_teachers_output(path, edition):
    """The lab's stub and check cells (and any cell reading the stub's function) hold no output:
    the teacher's "all 5 checks passed" under a stub raising NotImplementedError is gone. Every
    other cell keeps its output, so the chapter still reads as it does on the site."""
    teacher, student = nbformat.read(path, as_version=4), edition[path.name]
    labs = [c for c in student.cells if {LAB_STUB, LAB_CHECK} & set(tags(c))]
    assert len(labs) >= 2 and all(c.outputs == [] and c.execution_count is None for c in labs)
    assert "checks passed" not in everything(student) and "checks passed" in everything(teacher)
    kept = {c.id: c for c in teacher.cells}
    assert [c.outputs for c in student.cells if c.cell_type == "code" and c not in labs] == \
        [kept[c.id].outputs for c in student.cells if c.cell_type == "code" and c not in labs]


def folded(cells: list[dict]) -> list[str]:
    """How each solution cell sits in the teacher's site: 'gated' (inside a solution-start /
    solution-end pair, with its prose) or 'alone' (hide-cell); 'OPEN' if neither."""
    where, inside = [], False
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and "{solution-start}" in source:
            inside = True
        elif cell["cell_type"] == "markdown" and "{solution-end}" in source:
            inside = False
        elif SOLUTION in tags(cell):
            where.append("gated" if inside else "alone" if "hide-cell" in tags(cell) else "OPEN")
    return where


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_teachers_site_folds_every_solution_cell(path):
    """The teacher's site (site/conf.py with -t teacher) folds each solution's code and output into
    its solution block, or a lab's solution (no prose) by itself: none in the open."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    where = folded(fold_solutions(path.stem, cells))
    assert "OPEN" not in where, where


@pytest.mark.parametrize("form", ["::: {Solution} ex-1\nProse.\n:::", "~~~{solution} ex-1\n:class: dropdown\nProse.\n~~~",
                                  "```` {solution}\nProse.\n````"])
def test_each_form_of_solution_block_folds_its_code(form):
    nb = hostile_notebook(form, ["solution"])
    cells = fold_solutions("x", [dict(c) for c in json.loads(nbformat.writes(nb))["cells"]])
    assert folded(cells) == ["gated"]
    assert "{solution-start}" in "".join(cells[0]["source"]) and "Prose." in "".join(cells[0]["source"])


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
