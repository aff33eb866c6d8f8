#!/usr/bin/env bash
# Installs the npm packages of ci/web/package-lock.json, never into the repository: uPlot, which
# `perfgate dashboard` bundles into every site it builds (CMake finds it here and embeds it in the
# binary), and playwright-core, which the dashboard's browser test drives Debian's Chromium with.
#
#   ci/install-web-deps.sh [DIR]     (default: $PERFGATE_WEB_DEPS_DIR, else ~/.cache/perfgate/web)
#
# `npm ci` installs exactly the locked versions (integrity-checked) and runs no package scripts.
# Without npm or the registry this script fails, and the build leaves the dashboard without its
# charts: `perfgate dashboard` then says so and builds nothing.
set -euo pipefail
dir="${1:-${PERFGATE_WEB_DEPS_DIR:-$HOME/.cache/perfgate/web}}"
here="$(cd "$(dirname "$0")/web" && pwd)"
command -v npm >/dev/null 2>&1 || { echo "install-web-deps: npm not found (Debian: apt-get install npm)" >&2; exit 1; }
mkdir -p "$dir"
if cmp -s "$here/package-lock.json" "$dir/package-lock.json" && [ -f "$dir/node_modules/uplot/dist/uPlot.iife.min.js" ]; then
  echo "install-web-deps: $dir already holds ci/web/package-lock.json's packages"
  exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dir/"
(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
echo "install-web-deps: uPlot and playwright-core in $dir/node_modules"
