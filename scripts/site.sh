#!/usr/bin/env bash
# Build the course website into site/_build/html/ from the committed executed notebooks
# (nothing is re-executed); any Sphinx warning fails the build. Needs the site (or dev) extra.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
"$PYTHON" -m sphinx -b html -W --keep-going -q site site/_build/html "$@"
echo "site: $(pwd)/site/_build/html/index.html"
