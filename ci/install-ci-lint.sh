#!/usr/bin/env bash
# Installs the npm packages of ci/lint/package-lock.json, never into the repository:
# action-validator (@action-validator/cli), which checks ci/github/perfgate.yml against GitHub's
# workflow schema in the CTest test e2e/ci_recipes_valid (tests/e2e/ci_recipes_valid.sh).
#
#   ci/install-ci-lint.sh [DIR]     (default: $PERFGATE_CI_LINT_DIR, else ~/.cache/perfgate/ci-lint)
#
# `npm ci` installs exactly the locked versions (ci/npm_locked.bash).
# Without npm or the registry this script fails, and that test says it cannot run.
set -euo pipefail
source "$(dirname "$0")/npm_locked.bash"
install_locked install-ci-lint "$(cd "$(dirname "$0")/lint" && pwd)" "${1:-${PERFGATE_CI_LINT_DIR:-$HOME/.cache/perfgate/ci-lint}}" \
  node_modules/.bin/action-validator "action-validator (node_modules/.bin)"
