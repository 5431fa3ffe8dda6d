#!/usr/bin/env bash
# Install the project with its dev extra into .venv and run the whole test suite:
# unit tests, doctests, every notebook under nbval, and the browser test of the Voila page
# (Debian's chromium is installed with apt first when it is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_browser.sh || echo "WARNING: could not install chromium; the browser test will be skipped" >&2
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
# Files are shared out among worker processes (pytest-xdist), one per core, at most 4; a file's
# tests run in one worker, in order (a notebook's cells share one kernel). Files go out in the
# order given, not by test count: the longest (the notebooks, the browser and site tests) first.
# The workers share one numba cache folder, made for this version of the sources (numba checks
# only the file of the function it caches: an edit elsewhere could leave a stale kernel); two
# processes compiling one kernel at once are safe (its cache is written under a lock,
# yatzy_core/engine/compiled/cache_lock.py). The package's own cache is not touched.
cache=".venv/numba-cache/$(find yatzy_core -name '*.py' | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)"
find .venv/numba-cache -mindepth 1 -maxdepth 1 ! -path "$cache" -exec rm -rf {} + 2>/dev/null || true
export NUMBA_CACHE_DIR="$PWD/$cache"
workers=$(( $(nproc) < 4 ? $(nproc) : 4 ))
.venv/bin/python -m pytest -q -n "$workers" --dist loadfile --no-loadscope-reorder --nbval-lax \
    --nbval-current-env notebooks tests/test_browser.py tests/test_site.py tests yatzy_core "$@"
