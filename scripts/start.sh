#!/usr/bin/env bash
# Install yatzy-core with the notebook extra, solve and cache every built-in rule set, print the
# expected scores, then open JupyterLab on the notebooks.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[notebooks]"
for rules in yahtzee yahtzee-verhoeff yahtzee-no-bonus yatzy yatzy-thesis; do
    echo "== $rules"
    .venv/bin/yatzy solve --rules "$rules"
done
exec .venv/bin/jupyter lab notebooks/ "$@"
