#!/usr/bin/env bash
# Installs the npm packages of ci/lint/package-lock.json, never into the repository:
# action-validator (@action-validator/cli), which checks ci/github/perfgate.yml against GitHub's
# workflow schema in the CTest test e2e/ci_recipes_valid (tests/e2e/ci_recipes_valid.sh).
#
#   ci/install-ci-lint.sh [DIR]     (default: $PERFGATE_CI_LINT_DIR, else ~/.cache/perfgate/ci-lint)
#
# `npm ci` installs exactly the locked versions (integrity-checked) and runs no package scripts.
# Without npm or the registry this script fails, and that test says it cannot run.
set -euo pipefail
dir="${1:-${PERFGATE_CI_LINT_DIR:-$HOME/.cache/perfgate/ci-lint}}"
here="$(cd "$(dirname "$0")/lint" && pwd)"
command -v npm >/dev/null 2>&1 || { echo "install-ci-lint: npm not found (Debian: apt-get install npm)" >&2; exit 1; }
mkdir -p "$dir"
if cmp -s "$here/package-lock.json" "$dir/package-lock.json" && [ -x "$dir/node_modules/.bin/action-validator" ]; then
  echo "install-ci-lint: $dir already holds ci/lint/package-lock.json's packages"
  exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dir/"
(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
echo "install-ci-lint: action-validator in $dir/node_modules/.bin"
