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


CHROMIUM = os.environ.get("YATZY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium driven by playwright (tests/test_site.py, tests/test_browser.py), its
    `expect` waiting 30 s; skips without playwright or without /usr/bin/chromium."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (dev extra)")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/install_browser.sh")
    sync_api.expect.set_options(timeout=30_000)   # a loaded machine redraws a plotly chart in seconds
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
