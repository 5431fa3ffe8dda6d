#!/usr/bin/env bash
# Install yatzy-core with the notebook extra (editable, as the test command does: scripts/install.sh),
# compile the solver kernel once (numba caches it), solve and cache every built-in rule set, print
# the expected scores, then open JupyterLab (not with YATZY_NO_LAB=1: stops after the scores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh notebooks
.venv/bin/python -m yatzy_core.warmup
for rules in yahtzee yahtzee-verhoeff yahtzee-no-bonus yatzy yatzy-thesis; do
    echo "== $rules"
    .venv/bin/yatzy solve --rules "$rules"
done
if [ "${YATZY_NO_LAB:-0}" = 1 ]; then
    exit 0
fi
root=()
[ "$(id -u)" = 0 ] && root=(--allow-root)   # JupyterLab refuses root without it (containers)
exec .venv/bin/jupyter lab "${root[@]}" notebooks/ "$@"
