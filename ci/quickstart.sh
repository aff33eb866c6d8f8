#!/usr/bin/env bash
# Quick start on a fresh Debian 12 machine: installs the packages, configures and builds
# perfgate, then runs the default suite and prints its table.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
cmake --preset ci
cmake --build --preset ci
build/perfgate run "$@"
