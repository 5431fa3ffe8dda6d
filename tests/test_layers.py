"""The package's layers (README, "Layout"): a module imports only from layers below its own, so
there are no cycles; each module imports alone; the core imports without plotly or ipywidgets."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "yatzy_core"

# bottom to top; a module may import from earlier layers only (the README lists the same)
LAYERS = [
    ["version", "checks"],                        # checks: argument errors that name the argument
    ["dice"],
    ["probability", "rules"],
    ["rulefile"],                                 # reads rule files into Rules (see LAZY)
    ["variants"],                                 # house rules: a rule set with changes
    ["states"],
    ["turn"],                                     # the turn engine
    ["policy", "bruteforce"],
    ["kernel"],
    ["target_kernel"],
    ["solver"],
    ["cache", "warmup"],                          # warmup: `python -m yatzy_core.warmup`
    ["solutions", "targets"],
    ["subgame"],                                  # the rest of a game as a rule set
    ["outcomes"],                                 # the engine's turn outcomes, compiled
    ["advisor", "play", "forward"],
    ["distribution"],
    ["midgame"],
    ["strategies", "goals", "goal_play"],
    ["planners"],
    ["players"],
    ["thumb"],                                    # rules of thumb as decision lists
    ["thumb_catalogue"],                          # the candidate rules
    ["thumb_exact"],                              # ... measured exactly, learned from optimal play
    ["simulation", "coach"],
    ["gamelog"],
    ["study", "goal_coach"],                      # goal_coach: moves graded for a score to beat
    ["cli_args"],
    ["cli_study", "cli_distribution", "cli_grade"],
    ["cli"],
    ["ui.objectives"],                            # what the explorer ranks by
    ["__main__", "ui.plots", "ui.state_graph", "ui.widgets", "ui.background", "ui.scorecard",
     "ui.dice_widget", "ui.coach_log"],
    ["ui.coach_outlook", "ui.coach_goal"],
    ["ui.widgets_coach", "ui.rules_editor"],
]
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
PACKAGES = {"__init__": "yatzy_core", "ui.__init__": "yatzy_core.ui"}   # may import anything below
OPTIONAL = ("plotly", "ipywidgets", "anywidget")
# the one allowed upward import, done inside functions: Rules.from_file / to_toml and get_rules
# (the built-in rule sets are files) use the file format, which builds Rules values
LAZY = {("rules", "rulefile")}


def modules() -> list[str]:
    return sorted(".".join(p.relative_to(PACKAGE).with_suffix("").parts) for p in PACKAGE.rglob("*.py"))


def imports(name: str) -> set[str]:
    """Package modules `name` imports, at the top or inside functions (relative imports)."""
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


def test_every_module_has_a_layer():
    assert sorted(set(modules()) - set(PACKAGES)) == sorted(LAYER)


@pytest.mark.parametrize("name", sorted(LAYER))
def test_imports_go_down_only(name):
    upward = {m for m in imports(name) if LAYER.get(m, -1) >= LAYER[name] and (name, m) not in LAZY}
    assert not upward, f"{name} (layer {LAYER[name]}) imports {sorted(upward)} from its layer or above"


def test_the_readme_lists_every_module():
    text = (ROOT / "README.md").read_text()
    layout = text[text.index("## Layout"):]
    layout = layout[:layout.index("\n## ", 4)] if "\n## " in layout[4:] else layout
    missing = [m for m in LAYER if f"{m.split('.')[-1]}.py" not in layout]
    assert not missing


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_NUM_THREADS="1"))


def test_each_module_imports_alone():
    """A fresh interpreter per module: an import cycle would fail here for some entry point."""
    for name in sorted(LAYER) + sorted(PACKAGES.values()):
        module = name if name.startswith("yatzy_core") else f"yatzy_core.{name}"
        done = _run(f"import importlib; importlib.import_module({module!r})")
        assert done.returncode == 0, f"{module}: {done.stderr[-800:]}"


def test_the_core_imports_without_plotly_or_ipywidgets():
    block = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in OPTIONAL)
    core = [m for m in LAYER if not m.startswith("ui") and m != "__main__"]
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
    for name in LAYER:
        path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("yatzy_core"):
                absolute.append(name)
            if isinstance(node, ast.Import) and any(a.name.startswith("yatzy_core") for a in node.names):
                absolute.append(name)
    assert not absolute
