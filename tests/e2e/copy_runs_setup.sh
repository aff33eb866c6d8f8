#!/usr/bin/env bash
# The real runs the report end-to-end tests read (the CTest fixture e2e_copy_runs, FIXTURES_SETUP
# in tests/CMakeLists.txt): two runs of copy on the CPU and their comparison, measured once per
# ctest run into PERFGATE_E2E_COPY_RUNS (tests/report/e2e_runs.bash), where report_html,
# fleet_report and junit_schema each measured their own.
# Runs beside other tests: what its runs measured is no test's subject (those tests assert the
# reports' form and that they show whatever verdicts the results hold).
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_COPY_RUNS:?}"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
source "$(dirname "$0")/../report/e2e_runs.bash"
rm -rf "$PERFGATE_E2E_COPY_RUNS"
seed_peaks "$PERFGATE_E2E_COPY_RUNS/cache"
make_copy_runs "$PERFGATE_E2E_COPY_RUNS" "$PERFGATE_E2E_COPY_RUNS/cache" || exit 1
ls -l "$PERFGATE_E2E_COPY_RUNS"/*.json
