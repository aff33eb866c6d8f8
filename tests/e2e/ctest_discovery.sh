#!/usr/bin/env bash
# Real ctest over the generated perf tests: every case of `perfgate list --ctest` is a test
# with the labels perf, its kernel and its backend; a case without a baseline skips (77).
# Runs beside other tests: it asserts what ctest registers and that a case without a baseline skips.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
rm -rf "$PERFGATE_E2E_TMP" && mkdir -p "$PERFGATE_E2E_TMP/tests"
# ctest runs the build's tests from a folder of this test's own, so that its logs (Testing/) go
# there and not over those of the ctest running this test.
echo "subdirs(\"$PERFGATE_BUILD_DIR\")" >"$PERFGATE_E2E_TMP/tests/CTestTestfile.cmake"
tests="$PERFGATE_E2E_TMP/tests"
listed=$("$PERFGATE" list --ctest | wc -l)
registered=$(ctest --test-dir "$tests" -N -L '^perf$' | grep 'Test *#' | grep -c '/' || true)
echo "listed $listed cases, ctest has $registered perf tests"
[ "$listed" -gt 0 ] && [ "$listed" -eq "$registered" ] || { echo "FAIL: counts differ" >&2; exit 1; }
# Labels: kernel and backend.
# (grep reads all of ctest's output: grep -q would stop early and, under pipefail, fail on SIGPIPE)
ctest --test-dir "$tests" -N -L '^copy$' | grep -c 'copy/cpu/' >/dev/null \
  || { echo "FAIL: no copy label" >&2; exit 1; }
# One real perf test through ctest, against an empty baselines folder: skipped (77), so it judges
# nothing beside the other tests.
export PERFGATE_CACHE_DIR="$PERFGATE_E2E_TMP/cache"
export PERFGATE_BASELINES_DIR="$PERFGATE_E2E_TMP/baselines"
mkdir -p "$PERFGATE_BASELINES_DIR"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$PERFGATE_CACHE_DIR"
out=$(ctest --test-dir "$tests" -R '^copy/cpu/n=1048576$' -V 2>&1 || true)  # -V: a skip's output too
echo "$out"
grep -q 'Skipped' <<<"$out" || { echo "FAIL: perf test without a baseline not skipped" >&2; exit 1; }
grep -q 'No baselines for' <<<"$out" || { echo "FAIL: the skip does not say there is no baseline" >&2; exit 1; }
echo OK
