import os

import pytest
from hypothesis import settings

# CI replays the same examples every run (a red CI must be reproducible); run with
# HYPOTHESIS_PROFILE=explore to search fresh random examples, many more of them.
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

from yatzy_core.engine.cache import get_solution


@pytest.fixture(scope="session")
def solutions():
    """Solved tables of the built-in rule sets, from the per-user cache (solved once if absent)."""
    cached = {}

    def get(name):
        if name not in cached:
            cached[name] = get_solution(name, progress=False)
        return cached[name]
    return get


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    """A cache folder of this test's own (YATZY_CACHE_DIR), empty at the start."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("YATZY_CACHE_DIR", str(folder))
    return folder
