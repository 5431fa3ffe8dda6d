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
# Every numba kernel compiled once, ahead (else each worker compiles the same ones: minutes).
.venv/bin/python -m yatzy_core.warmup --all
# Files are shared out among worker processes (pytest-xdist), one per core, at most 4; a file's
# tests run in one worker, in order (a notebook's cells share one kernel). The notebooks go
# first: the longest files, started early, do not finish last.
.venv/bin/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile \
    --nbval-lax --nbval-current-env notebooks tests yatzy_core "$@"
