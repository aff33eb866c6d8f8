#!/usr/bin/env bash
# `perfgate run` measures one device, the best one here unless --backend says; a case id that
# names its backend picks it: `perfgate run 'copy/vulkan/n=1048576,wg=256'` on a machine whose best
# device is its CPU (llvmpipe is no GPU) measures that Vulkan case rather than saying it matches no
# case. Given --backend cpu, the same id still matches no case, saying so.
# Runs beside other tests: it asserts which device ran a case, not how fast.
# Skips (77) where there is no Vulkan device.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"
source "$(dirname "$0")/../measure/e2e_sampling.bash"
brief_sampling "$tmp/thresholds"
"$PERFGATE" list --backend vulkan >"$tmp/list.out" 2>&1 && grep -q "copy/vulkan/" "$tmp/list.out" ||
  { echo "SKIP: no Vulkan device here"; exit 77; }
opts=(--no-judge --quiet --color never --cache-dir "$tmp/cache" --thresholds "$tmp/thresholds")
fail=0

case_id="copy/vulkan/n=1048576,wg=256"
"$PERFGATE" run "$case_id" "${opts[@]}" --json "$tmp/vulkan.json" >"$tmp/vulkan.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] || ! python3 - "$tmp/vulkan.json" "$case_id" <<'PY'; then
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert [c["id"] for c in cases] == [sys.argv[2]], [c["id"] for c in cases]
assert cases[0]["backend"] == "vulkan", cases[0]["backend"]
assert cases[0]["metrics"]["latency_ns"]["samples"], "no samples"
PY
  cat "$tmp/vulkan.out"
  echo "FAIL: perfgate run $case_id exited $rc or did not measure that Vulkan case" >&2
  fail=1
fi

out=$("$PERFGATE" run --backend cpu "$case_id" "${opts[@]}" 2>&1)
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "'$case_id' matches no case" <<<"$out"; then
  echo "$out"
  echo "FAIL: --backend cpu with a Vulkan case id exited $rc (expected 2, matching no case)" >&2
  fail=1
fi
[ "$fail" -eq 0 ] && echo "OK: a case id naming its backend picks it; --backend still decides"
exit $fail
