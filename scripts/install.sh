#!/usr/bin/env bash
# The one install step of start.sh and test.sh: .venv/ with yatzy-core installed *editable* (the
# repository's own files) and the extra named (notebooks, dev, site), so either command, in either
# order, leaves one copy of the package. A plain install beside an editable one broke the README's
# order: numba's cache files written into the installed copy survived pip's uninstall, and that
# stray site-packages/yatzy_core/ shadowed the repository's submodules.
# Usage: bash scripts/install.sh EXTRA
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:?usage: bash scripts/install.sh notebooks|dev|site}"
python3 -m venv .venv
# A copy left by an earlier plain install (files pip did not install are not uninstalled): removed
# whole, so that nothing in site-packages can shadow the repository's package.
rm -rf .venv/lib/python3*/site-packages/yatzy_core
.venv/bin/python -m pip install -q --upgrade pip
# setuptools warns that a folder named like the package may take precedence: here it *is* the package
.venv/bin/python -m pip install -q -e ".[$extra]" 2>&1 | { grep -v -e '^\s*$' -e '\*\*\*\*' \
    -e 'BuildBackendWarning: Editable installation' -e 'careful with folders in your working' \
    -e 'name as your package as they may take precedence' -e '^\s*!!\s*$' -e 'WheelFile(wheel_path' \
    || true; } >&2
# Voila's template of notebooks 07 and 09 (share/jupyter/voila/templates/yatzy-core): pip installs
# pyproject's data-files from a wheel, but not with an editable install, so it is copied here.
mkdir -p .venv/share/jupyter/voila/templates
rm -rf .venv/share/jupyter/voila/templates/yatzy-core
cp -R share/jupyter/voila/templates/yatzy-core .venv/share/jupyter/voila/templates/
