#!/usr/bin/env bash
# Install Debian's Chromium for the browser test (tests/test_browser.py), only if it is missing.
# Playwright cannot download a browser here, so the test drives /usr/bin/chromium.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
