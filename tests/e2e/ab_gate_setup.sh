#!/usr/bin/env bash
# The slowed copy of this project that e2e/ab_gate gates against (the CTest fixture e2e_ab_slowed,
# FIXTURES_SETUP in tests/CMakeLists.txt), built into the build folder (tests/e2e/ab_slowed.bash).
# Skips (77) when there is no compiler to build it with.
# Runs beside other tests: it builds and measures nothing.
set -euo pipefail
: "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_SOURCE_DIR:?}"
source "$(dirname "$0")/ab_slowed.bash"
slowed_build
"$slowed" --help >/dev/null
