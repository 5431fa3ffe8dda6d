"""A docstring that names a function by its module (`turn_choices.roll_options`) names one that is
there: a function that moves takes its references along."""
import ast
import importlib
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "yatzy_core"
REFERENCE = re.compile(r"`([a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)(?:\(\))?`")
MODULES = {".".join(p.relative_to(PACKAGE).with_suffix("").parts).removesuffix(".__init__").removesuffix("__init__")
           for p in PACKAGE.rglob("*.py")}
BY_NAME = {}
for _name in MODULES:
    BY_NAME.setdefault(_name.split(".")[-1] or "yatzy_core", []).append(_name)


def references(source: str) -> list[str]:
    """Backticked dotted names in the docstrings of a module, its classes and functions."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found += REFERENCE.findall(ast.get_docstring(node, clean=False) or "")
    return found


def _module(name: str):
    return importlib.import_module(f"yatzy_core.{name}" if name else "yatzy_core")


def stale(reference: str) -> bool:
    """Whether a reference names a function by a module it is not in, while another of the
    package's modules has it: `turn_forward.roll_options` once roll_options moved to turn_choices.
    Other references (a variable's attribute: `rules.dice`, numpy's) are not judged."""
    parts = reference.split(".")
    module, name = ".".join(parts[:-1]), parts[-1]
    homes = [m for m in BY_NAME.get(parts[-2], []) if m == module or m.endswith("." + module)]
    if not homes or any(hasattr(_module(m), name) for m in homes):
        return False
    return any(name in vars(_module(m)) for m in MODULES)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_docstring_references_resolve(path):
    if path.parts[-2] == "ui":
        pytest.importorskip("plotly")
    assert [r for r in references(path.read_text()) if stale(r)] == []


def test_a_moved_function_is_caught():
    assert stale("turn_forward.roll_options") and not stale("turn_choices.roll_options")
    assert stale("thumb.catalogue") and not stale("thumb_catalogue.catalogue")
    assert stale("strategies.strategy_names") and not stale("registry.strategy_names")
    assert not stale("engine.turn.TIE") and not stale("space.reachable") and not stale("np.flatnonzero")
