#!/usr/bin/env bash
# The device peaks the end-to-end tests start from (the CTest fixture e2e_peaks, FIXTURES_SETUP in
# tests/CMakeLists.txt): measured once per ctest run into PERFGATE_E2E_PEAKS by a real run on the
# CPU, and on Vulkan where there is a device. Each test that measures cases, and is not about
# measuring peaks, copies them into its own scratch cache (tests/measure/e2e_peaks.bash).
# Fails only when the CPU run fails.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_PEAKS:?}"
rm -rf "$PERFGATE_E2E_PEAKS" && mkdir -p "$PERFGATE_E2E_PEAKS"
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
