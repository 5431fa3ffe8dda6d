import pytest

from yatzy_core.cache import get_solution


@pytest.fixture(scope="session")
def solutions():
    """Solved tables of the built-in rule sets, from the per-user cache (solved once if absent)."""
    cached = {}

    def get(name):
        if name not in cached:
            cached[name] = get_solution(name, progress=False)
        return cached[name]
    return get
