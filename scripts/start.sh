#!/usr/bin/env bash
# Install yatzy-core with the notebook extra, compile the solver kernel once (numba caches it),
# solve and cache every built-in rule set, print the expected scores, then open JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q ".[notebooks]"   # a plain install: an editable one makes setuptools warn
.venv/bin/python -P -m yatzy_core.warmup       # the installed copy (-P: not ./yatzy_core), compiled ahead
for rules in yahtzee yahtzee-verhoeff yahtzee-no-bonus yatzy yatzy-thesis; do
    echo "== $rules"
    .venv/bin/yatzy solve --rules "$rules"
done
root=()
[ "$(id -u)" = 0 ] && root=(--allow-root)   # JupyterLab refuses root without it (containers)
exec .venv/bin/jupyter lab "${root[@]}" notebooks/ "$@"
