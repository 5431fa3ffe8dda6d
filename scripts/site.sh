#!/usr/bin/env bash
# Build the course website into site/_build/html/ from the committed executed notebooks
# (nothing is re-executed); any Sphinx warning fails the build. Needs the site (or dev) extra.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p site/play/tables
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
# the "Play and ask" page's tables: every state value of each rule set, gzip-compressed (about 5 MB)
echo "site: the play page's tables (each solved first when not cached: about a minute in all)"
for rules in yahtzee yahtzee-no-bonus yatzy; do
    "$PYTHON" -m yatzy_core export --what values --rules "$rules" --force "site/play/tables/$rules.values.gz"
done
echo "site: building the pages with Sphinx (a few minutes; its progress below)"
"$PYTHON" -m sphinx -b html -W --keep-going site site/_build/html "$@"
echo "site: $(pwd)/site/_build/html/index.html"
