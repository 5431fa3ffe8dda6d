"""The README's two commands, in either order on one clone, leave one working install.

Both run `scripts/install.sh` (start.sh with the notebooks extra, test.sh with dev). In a throwaway
copy of the repository the install steps run one after the other (dev, then notebooks: an
editable install either way), after a plain install of the kind the old start.sh made, with a file that pip did not install left inside it (numba's cache, written
by the warm-up): that copy shadowed the editable package's submodules, and `yatzy --help` failed
with ModuleNotFoundError. Dependencies come from this environment (a .pth line), so pip installs
only the package itself.
"""
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIP = shutil.ignore_patterns(".venv", ".git", "_build", "__pycache__", ".ipynb_checkpoints",
                              "screenshots", ".numba-cache", ".yatzy-cache", "*.egg-info")

pytestmark = pytest.mark.skipif(not (ROOT / "scripts" / "install.sh").exists()
                                or shutil.which("python3") is None, reason="needs the repository's scripts")


def venv_site(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


@pytest.fixture
def clone(tmp_path):
    """A copy of the repository whose .venv already sees this environment's packages."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=SKIP)
    subprocess.run(["python3", "-m", "venv", str(repo / ".venv")], check=True)
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (venv_site(repo / ".venv") / "outer-env.pth").write_text("\n".join(ours) + "\n")
    return repo


def run(repo: Path, *command: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(list(command), cwd=repo, env=env, capture_output=True, text=True,
                          timeout=600)


def install(repo: Path, extra: str) -> None:
    done = run(repo, "bash", "scripts/install.sh", extra)
    assert done.returncode == 0, done.stderr[-2000:]


def assert_one_working_copy(repo: Path) -> None:
    """`yatzy --help` runs, every submodule comes from the clone, nothing sits in site-packages."""
    helped = run(repo, str(repo / ".venv" / "bin" / "yatzy"), "--help")
    assert helped.returncode == 0, helped.stderr
    assert "advise" in helped.stdout
    probe = ("import yatzy_core, yatzy_core.engine.position as p, yatzy_core.cli.command as c;"
             "print(p.__file__); print(c.__file__)")
    where = run(Path("/"), str(repo / ".venv" / "bin" / "python"), "-c", probe)
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert Path(line).resolve().is_relative_to(repo.resolve() / "yatzy_core"), line
    assert not (venv_site(repo / ".venv") / "yatzy_core").exists()
    template = repo / ".venv" / "share" / "jupyter" / "voila" / "templates" / "yatzy-core"
    assert (template / "index.html.j2").is_file()       # notebooks 07 and 09 name it (Voila)


def test_either_order_after_a_plain_install_leaves_one_working_install(clone):
    """The old start.sh's plain install with a file pip never installed (numba's cache), then the
    test command's step (dev), then the main command's (notebooks): a working install after each."""
    done = run(clone, str(clone / ".venv" / "bin" / "python"), "-m", "pip", "install", "-q",
               "--no-deps", ".")
    assert done.returncode == 0, done.stderr[-2000:]
    stray = venv_site(clone / ".venv") / "yatzy_core" / "engine" / "compiled" / "__pycache__"
    stray.mkdir(parents=True, exist_ok=True)
    (stray / "kernel.solve-1.py311.nbi").write_bytes(b"numba's index")
    for extra in ("dev", "notebooks"):
        install(clone, extra)
        assert_one_working_copy(clone)
