"""The doctests of a module that needs an optional extra are collected only where it is installed
(the dev extra installs them all; tests/test_layers.py's EXTRAS lists the same modules).

The notebooks run under nbval with progress off (`YATZY_PROGRESS=0`, the switch of
`yatzy_core.engine.progress`), so that no announcement or bar lands in an output nbval compares,
as they were committed. It is set for each notebook's kernel only (the kernel starts in the
notebook's setup and copies this environment); the tests in the same process keep their own
setting. (Here, not in notebooks/conftest.py: with --doctest-modules a second conftest.py is
collected as a module named like this one, an import file mismatch.)"""
import importlib.util
import os

import pytest

collect_ignore = [path for path, package in {"yatzy_core/players/gym_env.py": "gymnasium"}.items()
                  if importlib.util.find_spec(package) is None]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    if not str(item.path).endswith(".ipynb"):
        yield
        return
    before = os.environ.get("YATZY_PROGRESS")
    os.environ["YATZY_PROGRESS"] = "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("YATZY_PROGRESS", None)
        else:
            os.environ["YATZY_PROGRESS"] = before
