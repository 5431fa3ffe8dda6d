"""The package's layers (README, "Layout"): folders stacked game < engine < objectives < players <
advice < cli < ui, and a module imports only from layers below its own, so there are no cycles;
each module imports alone; the core imports without plotly or ipywidgets."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "yatzy_core"

# The layers as folders, bottom to top: a module imports only from its own folder or the folders
# before it (README, "Layout"). At the top level: the package's front door only.
SUBPACKAGES = ["game", "engine", "objectives", "players", "advice", "cli", "ui"]
TOP_LEVEL = {"__init__", "__main__", "version", "warmup"}

# Module by module, bottom to top; a module may import from earlier layers only.
LAYERS = [
    ["version", "game.checks"],                   # checks: argument errors that name the argument
    ["game.dice"],
    ["game.probability", "game.scoring"],          # scoring: the scorer catalogue and Box
    ["game.ruleset"],                             # the Rules value
    ["game.rulefile"],                            # rule files (TOML) read into Rules, written back
    ["game.rules"],                               # the built-in rule sets by name (get_rules)
    ["game.variants"],                            # house rules: a rule set with changes
    ["game.states"],
    ["engine.plain_files", "engine.code_key"],                         # files opened never through a link, never waiting on a FIFO
    ["engine.compiled.cache_lock"],               # numba's disk cache under a lock
    ["engine.turn"],                              # the turn engine
    ["engine.turn_forward", "engine.bruteforce", "engine.position"],
    ["engine.turn_choices"],                      # one roll's choices in the advisor's order, a turn played out
    ["engine.compiled.layout"],                   # the kernels' tables, lane groups, state index
    ["engine.compiled.kernel"],
    ["engine.compiled.target_kernel", "engine.compiled.saved_kernel"],
    ["engine.compiled.saved_moments"],            # ... with the second moments, for the std
    ["engine.solver"],
    ["warmup", "engine.cache"],
    ["engine.layer_checkpoint"],                  # a long saved-roll solve's finished layers on disk
    ["engine.saved"],                             # saved rolls: every saved count in one pass
    ["engine.solutions", "engine.value_tables"],   # value_tables: the state values as a file for the web page
    ["engine.subgame"],                           # the rest of a game as a rule set
    ["engine.compiled.outcomes"],                 # the engine's turn outcomes, compiled
    ["engine.compiled.forward"],
    ["engine.compiled.policy_lanes"],             # a policy's rerolls, LANES lanes at once
    ["engine.compiled.policy_turn"],              # any policy's turn: needs or states as lanes
    ["engine.compiled.policy_forward"],           # ... pushed forwards
    ["engine.compiled.policy_ties"],              # ... the beat policy's ties, carried backwards
    ["objectives.objective"],                     # what advise ranks by: MaxMean, AtLeast, Beat, Risk
    ["objectives.targets"],
    ["objectives.distribution"],
    ["objectives.policy_play"],                     # any policy played forwards, the beat ties
    ["objectives.midgame"],
    ["players.batch"],                            # many games as arrays
    ["players.strategies"],
    ["players.planners"],
    ["players.registry"],
    ["players.thumb"],                            # rules of thumb as decision lists
    ["players.thumb_catalogue"],                  # the candidate rules
    ["players.thumb_exact"],                      # ... measured exactly, learned from optimal play
    ["players.simulation", "players.saved_play"],   # saved_play: games with saved rolls
    ["players.study"],
    ["advice.ranking"],                           # Advice, and the one enumeration of the choices
    ["advice.objective_advice"],
    ["advice.advisor"],
    ["advice.coach"],
    ["advice.gamelog"],
    ["advice.beat_grades"],                        # moves graded for a score to beat
    ["cli.args", "cli.long_work"],
    ["cli.study", "cli.distribution", "cli.grade", "cli.export"],
    ["cli.command"],
    ["__main__", "ui.play_for"],                # what the explorer ranks by
    ["ui.scorecard", "ui.dice_widget", "ui.background", "ui.score_bars",   # the pad's card, the dice, bars as SVG,
     "ui.fitted_figure"],                        # a plotly figure that fits its box
    ["ui.coach_outlook"],                         # the final score's distribution: coach and explorer
    ["ui.plots", "ui.state_graph", "ui.widgets", "ui.coach_log"],
    ["ui.coach_beat"],
    ["ui.widgets_coach", "ui.rules_editor"],
]
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
PACKAGES = {"__init__": "yatzy_core", **{f"{sub}.__init__": f"yatzy_core.{sub}"
                                          for sub in SUBPACKAGES + ["engine.compiled"]}}
OPTIONAL = ("plotly", "ipywidgets", "anywidget")


def folder(name: str) -> str:
    """The layer folder of a module ('engine' for engine.compiled.kernel; '' at the top)."""
    return name.split(".")[0] if "." in name else ""


def modules() -> list[str]:
    return sorted(".".join(p.relative_to(PACKAGE).with_suffix("").parts) for p in PACKAGE.rglob("*.py"))


def imports(name: str) -> set[str]:
    """Package modules `name` imports, at the top or inside functions (relative imports)."""
    path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
    here = name.split(".")[:-1]
    found = set()
    tree = ast.parse(path.read_text())
    skip = _type_checking_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level and id(node) not in skip:
            base = here[:len(here) - node.level + 1]
            target = base + (node.module.split(".") if node.module else [])
            if node.module:
                found.add(".".join(target))
            else:
                found.update(".".join(target + [a.name]) for a in node.names)
    return found


def _type_checking_nodes(tree) -> set[int]:
    """ids of the nodes under `if TYPE_CHECKING:` (annotations only: never run)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    return skip


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
    assert sorted(set(modules()) - set(PACKAGES)) == sorted(LAYER)


@pytest.mark.parametrize("name", sorted(LAYER))
def test_imports_go_down_only(name):
    upward = {m for m in imports(name) if LAYER.get(m, -1) >= LAYER[name]}
    assert not upward, f"{name} (layer {LAYER[name]}) imports {sorted(upward)} from its layer or above"


def test_folders_import_down_only():
    """game < engine < objectives < players < advice < cli < ui, as folders."""
    rank = {sub: i for i, sub in enumerate(SUBPACKAGES)}
    upward = sorted((name, m) for name in LAYER for m in imports(name)
                    if folder(name) and folder(m) and rank[folder(m)] > rank[folder(name)])
    assert not upward


def test_no_private_name_crosses_a_folder():
    """Underscore names stay in their folder: the compiled kernels' helpers are the engine's own."""
    crossing = sorted((name, module, what) for name in LAYER for module, what in imported_names(name)
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
    missing = [m for m in LAYER if f"{m.split('.')[-1]}.py" not in layout]
    assert not missing


# Rule names are resolved at the edges (`get_rules`): the CLI, the UI, and the public functions
# that accept a name (re-exported from yatzy_core/__init__.py or called by the notebooks); the
# layers inside take a `Rules` value. A doctest imports get_rules itself.
RESOLVE_NAMES = {
    "game.variants",                                  # variant("yatzy", ...): a built-in's house rules
    "engine.solver", "engine.cache", "engine.solutions", "engine.position",   # solve, get_solution,
                                                      # solution_for, Position.make
    "engine.saved",                                   # solve_saved (chapter 10)
    "objectives.distribution",                        # optimal_play, score_distribution, ...
    "objectives.targets", "objectives.policy_play",   # solve_targets, target_table, solve_risk,
                                                      # risk_distribution (chapter 8)
    "players.registry", "players.simulation", "players.strategies", "players.study",   # make_player,
                                                      # simulate, Optimal(...), run_study
    "players.thumb_catalogue", "players.thumb_exact",  # catalogue, optimal_positions (chapter 11)
    "advice.coach", "advice.gamelog",                 # Game, play_optimally; a log names its rules
    "cli.args", "cli.command", "cli.distribution", "cli.grade", "cli.export",
    "ui.coach_log", "ui.play_for", "ui.plots", "ui.rules_editor", "ui.state_graph", "ui.widgets", "ui.widgets_coach",
}


def test_rule_names_are_resolved_at_the_edges():
    resolving = {name for name in LAYER if ("game.rules", "get_rules") in imported_names(name)}
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
               for name in sorted(LAYER) + sorted(PACKAGES.values())]
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
    core = [m for m in LAYER if not m.startswith("ui.") and m != "__main__"]
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
