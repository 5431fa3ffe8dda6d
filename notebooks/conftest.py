"""The notebooks run under nbval with progress off (`YATZY_PROGRESS=0`, the switch of
`yatzy_core.engine.progress`), so that no announcement or bar lands in an output nbval compares,
as they were committed. Set for each notebook's kernel only: the tests in the same process keep
their own setting."""
import os

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    """The kernel starts in the notebook's setup (nbval's IPyNbFile) and copies this environment."""
    before = os.environ.get("YATZY_PROGRESS")
    os.environ["YATZY_PROGRESS"] = "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("YATZY_PROGRESS", None)
        else:
            os.environ["YATZY_PROGRESS"] = before
