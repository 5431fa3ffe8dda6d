#!/usr/bin/env bash
# Install the project with its dev extra into .venv and run the whole test suite:
# unit tests, doctests and every notebook under nbval.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_browser.sh   # Debian's chromium for the browser test, if missing
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
.venv/bin/python -m pytest -q --nbval-lax --nbval-current-env tests yatzy_core notebooks "$@"
