#!/usr/bin/env bash
# The baseline candidates the baseline end-to-end tests start from (the CTest fixture
# e2e_candidates, FIXTURES_SETUP in tests/CMakeLists.txt): each of CANDIDATE_NAMES proposed once
# per ctest run into PERFGATE_E2E_CANDIDATES (tests/store/e2e_lib.bash), where baseline_approve,
# baseline_concurrent, baseline_kill, baseline_merge, baseline_merge_refusals, baseline_propose
# and baseline_propose_allowances each proposed their own.
# Runs beside other tests: what its proposals measured is no test's subject (their thresholds allow
# any spread; the tests assert the files and the commands' output).
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
: "${PERFGATE_E2E_CANDIDATES:?}"
seed_peaks "$WORK/cache"
rm -rf "$PERFGATE_E2E_CANDIDATES" && mkdir -p "$PERFGATE_E2E_CANDIDATES"
for name in "${CANDIDATE_NAMES[@]}"; do
  make_candidate "$name" "$WORK/$name.yaml" || exit 1
done
# Only a whole set: a test finds every candidate or proposes its own.
cp "$WORK"/*.yaml "$WORK"/*.yaml.propose.log "$PERFGATE_E2E_CANDIDATES"/
ls -l "$PERFGATE_E2E_CANDIDATES"
exit $FAILED
