#!/usr/bin/env bash
# Installs the npm packages of ci/web/package-lock.json, never into the repository: uPlot, which
# `perfgate dashboard` bundles into every site it builds (CMake finds it here and embeds it in the
# binary), and playwright-core, which the dashboard's browser test drives Debian's Chromium with.
#
#   ci/install-web-deps.sh [DIR]     (default: $PERFGATE_WEB_DEPS_DIR, else ~/.cache/perfgate/web)
#
# `npm ci` installs exactly the locked versions (ci/npm_locked.bash).
# Without npm or the registry this script fails, and the build leaves the dashboard without its
# charts: `perfgate dashboard` then says so and builds nothing.
set -euo pipefail
source "$(dirname "$0")/npm_locked.bash"
install_locked install-web-deps "$(cd "$(dirname "$0")/web" && pwd)" "${1:-${PERFGATE_WEB_DEPS_DIR:-$HOME/.cache/perfgate/web}}" \
  node_modules/uplot/dist/uPlot.iife.min.js "uPlot and playwright-core (node_modules)"
