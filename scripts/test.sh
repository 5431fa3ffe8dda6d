#!/usr/bin/env bash
# Install the project with its dev extra into .venv and run the whole test suite:
# unit tests, doctests, every notebook under nbval, and the browser test of the Voila page
# (Debian's chromium is installed with apt first when it is missing: as root or with sudo, about
# 115 packages and 480 MB; the first line of output says so before it starts).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
    echo "test.sh: /usr/bin/chromium is missing: installing Debian's chromium with apt (as root or sudo; about 115 packages, 480 MB) for the browser tests"
fi
bash scripts/install_browser.sh || echo "WARNING: could not install chromium; the browser test will be skipped" >&2
bash scripts/install.sh dev
# Files are shared out among worker processes (pytest-xdist), one per core, at most 4; a file's
# tests run in one worker, in order (a notebook's cells share one kernel). Files go out in the
# order given, not by test count: the longest (the notebooks, the browser and site tests) first.
# The workers share one numba cache folder, made for this version of the sources (numba checks
# only the file of the function it caches: an edit elsewhere could leave a stale kernel); two
# processes compiling one kernel at once are safe (its cache is written under a lock,
# yatzy_core/engine/compiled/cache_lock.py). The package's own cache is not touched. The solved
# tables get the same treatment: the suite's own cache folder per version of the sources, so a
# test never reads a table written by older code and the user's own cache gets no test tables.
sources="$(find yatzy_core -name '*.py' -o -name '*.toml' | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)"
for kind in numba-cache yatzy-cache; do
    find ".venv/$kind" -mindepth 1 -maxdepth 1 ! -name "$sources" -exec rm -rf {} + 2>/dev/null || true
done
export NUMBA_CACHE_DIR="$PWD/.venv/numba-cache/$sources"
export YATZY_CACHE_DIR="$PWD/.venv/yatzy-cache/$sources"
workers=$(( $(nproc) < 4 ? $(nproc) : 4 ))
.venv/bin/python -m pytest -q -n "$workers" --dist loadfile --no-loadscope-reorder --nbval-lax \
    --nbval-current-env notebooks tests/test_browser.py tests/test_site.py tests/test_play_page.py \
    tests yatzy_core "$@"
