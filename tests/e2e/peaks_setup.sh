#!/usr/bin/env bash
# The device peaks the end-to-end tests start from (the CTest fixture e2e_peaks, FIXTURES_SETUP in
# tests/CMakeLists.txt): measured once per ctest run into PERFGATE_E2E_PEAKS by a real run on the
# CPU, and on Vulkan where there is a device. Each test that measures cases, and is not about
# measuring peaks, copies them into its own scratch cache (tests/measure/e2e_peaks.bash).
# It starts from the peaks this user's cache already holds (perfgate's default cache folder, where
# the quick start's run and the perf tests measure them), so that a ctest run after those measures
# none again; a missing, stale or provisional file is measured as a first run's would be.
# Fails only when the CPU run fails.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_PEAKS:?}"
rm -rf "$PERFGATE_E2E_PEAKS" && mkdir -p "$PERFGATE_E2E_PEAKS"
user_cache=${PERFGATE_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/perfgate}
for file in "$user_cache"/peaks-*.json; do
  [ -f "$file" ] && cp "$file" "$PERFGATE_E2E_PEAKS"/
done
for backend in cpu vulkan; do
  log="$PERFGATE_E2E_PEAKS/$backend.log"
  if ! "$PERFGATE" run --backend "$backend" --kernel copy --axis n=4096 --no-judge --quiet \
    --cache-dir "$PERFGATE_E2E_PEAKS" >"$log" 2>&1; then
    cat "$log"
    [ "$backend" = cpu ] && { echo "FAIL: the CPU run that measures peaks failed" >&2; exit 1; }
  fi
  tail -3 "$log"
done
ls -l "$PERFGATE_E2E_PEAKS"/peaks-*.json 2>/dev/null || echo "no peaks cached: each test measures its own"
exit 0
