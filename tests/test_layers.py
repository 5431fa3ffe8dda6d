"""The package's layers (README, "Layout"): folders stacked game < engine < objectives < players <
advice < cli < ui, a module imports only from its own layer or below and no imports run in a
circle; the numba kernels sit in engine/compiled/ under the Python engine; each module imports
alone; the core imports without plotly or ipywidgets."""
import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "yatzy_core"

# The layers, bottom to top (README, "Layout"): a module's layer is the longest entry its name
# starts with, so a module gets its folder's rank; it imports only from its own layer or those
# below, and no import cycle runs inside a layer (`test_no_import_cycle`). Engine leaves sit
# below the kernels: files opened safely, what the kernels and the Python engine share (TIE,
# TurnOutcomes), the value code's key, the chunked loop (a stop between chunks) and progress,
# which the kernels' Python drivers use too. At the top level: the package's front door only.
LAYERS = ["version", "game", "engine.plain_files", "engine.basics", "engine.chunked", "engine.progress",
          "engine.compiled", "engine",
          "warmup", "objectives", "players", "advice", "cli", "__main__", "ui", "labs"]
SUBPACKAGES = ["game", "engine", "objectives", "players", "advice", "cli", "ui", "labs"]
TOP_LEVEL = {"__init__", "__main__", "version", "warmup"}
PACKAGES = {"__init__": "yatzy_core", **{f"{sub}.__init__": f"yatzy_core.{sub}"
                                          for sub in SUBPACKAGES + ["engine.compiled"]}}


def rank(name: str) -> int:
    """The layer of a module (or package) by its name: the longest entry of LAYERS it starts with."""
    name = name.removesuffix(".__init__")
    found = [(len(entry), i) for i, entry in enumerate(LAYERS) if name == entry or name.startswith(entry + ".")]
    assert found, f"{name} is in no layer: add its folder to LAYERS"
    return max(found)[1]


OPTIONAL = ("plotly", "ipywidgets", "anywidget")


def folder(name: str) -> str:
    """The layer folder of a module ('engine' for engine.compiled.kernel; '' at the top)."""
    return name.split(".")[0] if "." in name else ""


def modules() -> list[str]:
    return sorted(".".join(p.relative_to(PACKAGE).with_suffix("").parts) for p in PACKAGE.rglob("*.py"))


MODULES = [m for m in modules() if m not in PACKAGES]
EXTRAS = {"players.gym_env": "gymnasium"}   # modules that need an optional extra: not imported without it
MISSING = {m for m, package in EXTRAS.items() if importlib.util.find_spec(package) is None}


def imports(name: str) -> set[str]:
    """Package modules `name` imports, at the top, inside functions or under TYPE_CHECKING
    (relative imports): an annotation's import is an arrow between layers too."""
    path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
    here = name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - node.level + 1]
            target = base + (node.module.split(".") if node.module else [])
            if node.module:
                found.add(".".join(target))
            else:
                found.update(".".join(target + [a.name]) for a in node.names)
    return found


def imported_names(name: str) -> list[tuple[str, str]]:
    """(module, name) of every `from .module import name` in module `name`."""
    path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
    here = name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level and node.module:
            target = ".".join(here[:len(here) - node.level + 1] + node.module.split("."))
            found.extend((target, a.name) for a in node.names)
    return found


def test_every_module_has_a_layer():
    assert {LAYERS[rank(m)] for m in MODULES} == set(LAYERS)    # and no entry is left unused


@pytest.mark.parametrize("name", MODULES)
def test_imports_go_down_only(name):
    upward = sorted(m for m in imports(name) if rank(m) > rank(name))
    assert not upward, f"{name} (layer {LAYERS[rank(name)]}) imports {upward} from above"


def import_cycles() -> list[list[str]]:
    """Circles of imports among the package's modules, each as a path back to its start."""
    graph = {m: sorted(i for i in imports(m) if i in MODULES) for m in MODULES}
    state, cycles = {}, []

    def visit(m, path):
        state[m] = "open"
        for n in graph[m]:
            if state.get(n) == "open":
                cycles.append(path[path.index(n):] + [n])
            elif n not in state:
                visit(n, path + [n])
        state[m] = "done"
    for m in MODULES:
        if m not in state:
            visit(m, [m])
    return cycles


def test_no_import_cycle():
    """Inside a layer modules import each other freely, but never in a circle."""
    assert import_cycles() == []


def test_an_upward_import_or_a_cycle_is_caught(monkeypatch):
    """The checks above see what they must: a made-up arrow up, a made-up circle."""
    real = imports
    monkeypatch.setitem(globals(), "imports", lambda name: real(name) | ({"engine.turn"} if name == "game.dice" else set()))
    with pytest.raises(AssertionError, match="from above"):
        test_imports_go_down_only("game.dice")
    monkeypatch.setitem(globals(), "imports", lambda name: real(name) | ({"engine.solver"} if name == "engine.turn" else set()))
    assert import_cycles() == [["engine.turn", "engine.solver", "engine.turn"]]


def test_folders_import_down_only():
    """game < engine < objectives < players < advice < cli < ui, as folders."""
    order = {sub: i for i, sub in enumerate(SUBPACKAGES)}
    upward = sorted((name, m) for name in MODULES for m in imports(name)
                    if folder(name) and folder(m) and order[folder(m)] > order[folder(name)])
    assert not upward


NUMBA_COMPILERS = {"njit", "jit", "vectorize", "guvectorize", "cfunc", "stencil", "generated_jit"}


def numba_compilers(source: str) -> list[int]:
    """Lines where a module names a numba compiler (`@njit`, `njit(f)`, `numba.jit`, an import of one)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "numba":
            lines += [node.lineno for a in node.names if a.name in NUMBA_COMPILERS]
        elif (node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)) in NUMBA_COMPILERS:
            lines.append(node.lineno)
    return lines


def test_every_kernel_lives_in_compiled():
    """numba compiles only in engine/compiled/: the Python engine stays plain Python."""
    outside = [f"{path.relative_to(PACKAGE)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
               if "compiled" not in path.relative_to(PACKAGE).parts for line in numba_compilers(path.read_text())]
    assert outside == []
    planted = "from numba import njit\nimport numba\n@njit(cache=True)\ndef f(x):\n    return x\ng = numba.jit(f)\n"
    assert sorted(set(numba_compilers(planted))) == [1, 3, 6]     # the check sees each form


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith("engine.compiled.")])
def test_kernels_import_no_python_engine_module(name):
    """The kernels sit below the Python engine: from the engine they import only its leaves
    (`engine.basics`: TIE, TurnOutcomes; `engine.plain_files`), never turn, solver or the like."""
    above = sorted(m for m in imports(name) if m.startswith("engine.") and not m.startswith("engine.compiled")
                   and rank(m) >= rank("engine.compiled"))
    assert not above, f"{name} imports {above} from the Python engine above it"


def test_no_private_name_crosses_a_folder():
    """Underscore names stay in their folder: the compiled kernels' helpers are the engine's own."""
    crossing = sorted((name, module, what) for name in MODULES for module, what in imported_names(name)
                      if what.startswith("_") and not what.endswith("__") and folder(module) != folder(name))
    assert not crossing


def test_the_top_level_is_a_front_door():
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top == TOP_LEVEL and len(top) <= 8
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and not p.name.startswith("__")) == \
        sorted(SUBPACKAGES)


def test_the_readme_lists_every_module():
    text = (ROOT / "README.md").read_text()
    layout = text[text.index("## Layout"):]
    layout = layout[:layout.index("\n## ", 4)] if "\n## " in layout[4:] else layout
    missing = [m for m in MODULES if f"{m.split('.')[-1]}.py" not in layout]
    assert not missing


# Rule names are resolved at the edges (`get_rules`): the CLI, the UI, and the public functions
# that accept a name (re-exported from yatzy_core/__init__.py or called by the notebooks); the
# layers inside take a `Rules` value. A doctest imports get_rules itself.
RESOLVE_NAMES = {
    "game.variants",                                  # variant("yatzy", ...): a built-in's house rules
    "engine.solver", "engine.cache", "engine.solutions", "engine.position",   # solve, get_solution,
                                                      # solution_for, Position.make
    "engine.saved",                                   # solve_saved (chapter 10)
    "engine.batch_advice",                            # advise_batch: inputs checked before the table
    "objectives.distribution",                        # optimal_play, score_distribution, ...
    "objectives.targets", "objectives.risk",          # solve_targets, target_table, solve_risk,
    "objectives.outscore_loss",                       # outscore_loss (its benchmark, chapter 13)
                                                      # risk_table (chapter 8)
    "players.registry", "players.simulation", "players.strategies", "players.study",   # make_player,
                                                      # simulate, Optimal(...), run_study
    "players.thumb_catalogue", "players.thumb_exact",  # catalogue, optimal_positions (chapter 11)
    "advice.coach", "advice.gamelog",                 # Game, play_optimally; a log names its rules
    "cli.args", "cli.command", "cli.distribution", "cli.grade", "cli.export", "cli.versus",
    "objectives.two_player", "objectives.versus_compiled",   # solve_versus, versus_value,
    "objectives.versus_dask",                         # solve_versus_dask (a name, as solve_targets)
    "objectives.endgame", "cli.versus_endgame",       # endgame_layer, build_endgame (chapter 13)
    "ui.coach_log", "ui.play_for", "ui.plots", "ui.rules_editor", "ui.state_graph", "ui.widgets", "ui.widgets_coach",
}


def test_rule_names_are_resolved_at_the_edges():
    resolving = {name for name in MODULES if ("game.rules", "get_rules") in imported_names(name)}
    assert resolving <= RESOLVE_NAMES, sorted(resolving - RESOLVE_NAMES)


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_NUM_THREADS="1"))


def test_no_function_takes_more_than_ten_parameters():
    """Tables travel as one value (`layout.Tables`, `Settings`), not as long argument lists."""
    wide = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                if len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) > 10:
                    wide.append(f"{path.relative_to(PACKAGE)}:{node.name}")
    assert wide == []


def test_each_module_imports_alone():
    """Each module imported first, with none of the package loaded: an import cycle would fail
    here for some entry point. One fresh interpreter forgets every `yatzy_core` module before
    each import (a fresh interpreter per module took 86 s); the libraries stay loaded, and no
    cycle among our modules can pass through them."""
    modules = [name if name.startswith("yatzy_core") else f"yatzy_core.{name}"
               for name in [m for m in MODULES if m not in MISSING] + sorted(PACKAGES.values())]
    done = _run("import importlib, sys, traceback\n"
                f"for module in {modules!r}:\n"
                "    for loaded in [m for m in sys.modules if m.split('.')[0] == 'yatzy_core']:\n"
                "        del sys.modules[loaded]\n"
                "    try:\n"
                "        importlib.import_module(module)\n"
                "    except Exception:\n"
                "        print(module, traceback.format_exc()[-800:], sep=': ')\n"
                "print('done')\n")
    assert done.returncode == 0 and done.stdout == "done\n", \
        done.stdout[-1600:] + done.stderr[-800:]


def test_the_core_imports_without_plotly_or_ipywidgets():
    block = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in OPTIONAL)
    core = [m for m in MODULES if not m.startswith("ui.") and m != "__main__" and m not in MISSING]
    done = _run(block + "import importlib, yatzy_core\n"
                + "".join(f"importlib.import_module('yatzy_core.{m}')\n" for m in core)
                + "from yatzy_core import simulate, Game, run_study, optimal_play\n"
                + "assert not any(m in sys.modules and sys.modules[m] for m in "
                + f"{OPTIONAL!r})\n")
    assert done.returncode == 0, done.stderr[-800:]
    ui = _run(block + "import yatzy_core.ui")
    assert ui.returncode != 0 and "plotly" in ui.stderr.splitlines()[-1]   # the views do need it


def test_package_code_imports_itself_relatively():
    """An absolute `yatzy_core` import would slip past the layer check above (doctests aside)."""
    absolute = []
    for name in MODULES:
        path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("yatzy_core"):
                absolute.append(name)
            if isinstance(node, ast.Import) and any(a.name.startswith("yatzy_core") for a in node.names):
                absolute.append(name)
    assert not absolute
