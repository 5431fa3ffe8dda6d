"""pip and conda installs get the same packages, and CI runs the test command the README names."""
import json
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*)$")


def requirement(text: str) -> tuple[str, str]:
    """("name", "specifier") with the name normalized as pip does (case, '_' and '.' -> '-')."""
    name, spec = SPEC.match(text.strip()).groups()
    return re.sub(r"[-_.]+", "-", name).lower(), spec.replace(" ", "")


def pyproject_requirements() -> set[tuple[str, str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lists = [project["dependencies"], *project.get("optional-dependencies", {}).values()]
    reqs = {requirement(r) for deps in lists for r in deps}
    return reqs | {("python", project["requires-python"].replace(" ", ""))}


def conda_requirements() -> set[tuple[str, str]]:
    """The `- name spec` items under `dependencies:`, the nested pip list's too (for packages
    conda-forge lacks); the pip list's `-e .` is the package itself, not a requirement."""
    reqs, inside = set(), False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        text = line.split("#")[0].rstrip()
        if not text:
            continue
        if not line.startswith(" "):             # a top-level key
            inside = text.startswith("dependencies:")
        elif inside and re.match(r"^\s+- ", text):
            item = text.strip()[2:].strip()
            if item not in ("pip", "pip:", "-e ."):
                reqs.add(requirement(item))
    return reqs


def test_environment_parser_reads_every_item():
    reqs = dict(conda_requirements())
    assert reqs["numpy"] == ">=1.26" and reqs["python"] == ">=3.11"
    assert "e" not in reqs and "-e" not in reqs       # `- -e .` belongs to the pip list


def test_pyproject_and_environment_agree():
    pip, conda = pyproject_requirements(), conda_requirements()
    assert pip == conda, f"only in pyproject.toml: {sorted(pip - conda)}; " \
                         f"only in environment.yml: {sorted(conda - pip)}"


def test_environment_installs_the_package_itself():
    assert re.search(r"^\s+- -e \.\s*$", (ROOT / "environment.yml").read_text(), re.M)


def commands(text: str) -> list[str]:
    """Shell lines that do something: no comments, shebang, `set` or `cd`."""
    lines = [re.sub(r"\s+#.*$", "", line.strip().removeprefix("$ ")) for line in text.splitlines()]
    return [c for c in lines if c and not c.startswith(("#", "set ", "cd "))]


def test_ci_runs_the_readme_test_command():
    readme = ROOT / "README.md"
    if not readme.exists():
        pytest.skip("README.md not written yet; it must show `bash scripts/test.sh` as the "
                    "test command")
    ci = commands((ROOT / ".ci" / "run").read_text())
    assert len(ci) == 1, f".ci/run should run exactly one command, found {ci}"
    assert ci[0] in commands(readme.read_text()), f"README.md never shows `{ci[0]}`"
    script = re.fullmatch(r"bash (\S+)", ci[0])
    assert script and (ROOT / script.group(1)).is_file(), f"{ci[0]} does not name a script"


def test_test_script_installs_dev_extra_and_runs_pytest():
    """Both README commands install through scripts/install.sh: the test command with dev."""
    script = (ROOT / "scripts" / "test.sh").read_text()
    assert "bash scripts/install.sh dev" in script and "-m pytest" in script
    assert "bash scripts/install.sh notebooks" in (ROOT / "scripts" / "start.sh").read_text()
    assert 'pip install -q -e ".[$extra]"' in (ROOT / "scripts" / "install.sh").read_text()


def test_the_wheel_lists_every_package_and_its_data():
    """A non-editable install gets only what pyproject names: every folder with an __init__.py,
    and the rule files the built-in rule sets are read from. A data folder is listed as a
    package too (with its files as package-data): setuptools warns about any it is not told of."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    code = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "yatzy_core").rglob("__init__.py")}
    data = {".".join(p.relative_to(ROOT).parts) for p in (ROOT / "yatzy_core").rglob("*")
            if p.is_dir() and p.name != "__pycache__" and not (p / "__init__.py").exists()}
    assert code == {"yatzy_core", *(f"yatzy_core.{sub}" for sub in (
        "game", "engine", "engine.compiled", "objectives", "players", "advice", "cli", "ui", "labs"))}
    assert data == {"yatzy_core.game.rulesets"}
    assert set(setuptools["packages"]) == code | data
    assert setuptools["package-data"] == {"yatzy_core.game.rulesets": ["*.toml"]}
    assert len(list((ROOT / "yatzy_core" / "game" / "rulesets").glob("*.toml"))) >= 8


def test_the_wheel_installs_the_voila_template():
    """The notebooks' Voila template goes where Voila looks for templates (the environment's
    share/jupyter/voila/templates/), every file of it, and the notebooks served by Voila use it."""
    data_files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    folder = "share/jupyter/voila/templates/yatzy-core"
    assert data_files == {folder: sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).iterdir())}
    assert json.loads((ROOT / folder / "conf.json").read_text()) == {"base_template": "lab"}
    for name in ("07_what_should_i_keep", "09_changing_the_rules"):
        notebook = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())
        assert notebook["metadata"]["voila"] == {"template": "yatzy-core"}, name
