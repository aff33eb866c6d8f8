#!/usr/bin/env bash
# Another project uses perfgate through find_package(perfgate): install perfgate into a prefix,
# build tests/consumer against it (shader variants from one source, defines, an include folder;
# a 116-byte struct push constant, two descriptor sets and an offset binding; a bf16 output and a
# typed specialization constant; no custom command,
# no file copied from perfgate's source), run its cases on the CPU and on Vulkan where there is
# a device (each checked against its float64 reference), and list its perf tests through ctest.
# On Vulkan, its plan mistakes (kernels left out of its default suite, run by name) are refused
# before anything runs, each naming the shader and the offset or binding, and its shader needing a
# feature the device lacks is skipped naming the shader and the feature.
# Runs beside other tests: it builds and measures without judging (--no-judge).
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
cmake --install "$PERFGATE_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$PERFGATE_SOURCE_DIR/tests/consumer" -B "$tmp/build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix"
cmake --build "$tmp/build" -j 2
exe="$tmp/build/consumer_perfgate"
"$exe" list > "$tmp/list.txt"
for id in "scale/cpu/n=65536,factor=2" "scale/cpu/n=65536,factor=3" "blend/cpu/n=65536" "to_bf16/cpu/n=65536"; do
  grep -qF "$id" "$tmp/list.txt" || { cat "$tmp/list.txt"; echo "FAIL: $id not listed" >&2; exit 1; }
done
export PERFGATE_CACHE_DIR="$tmp/cache"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$PERFGATE_CACHE_DIR"
# Measured briefly: the runs are checked for their references and fingerprint, not their noise
# (the installed thresholds found with nothing copied is e2e/readme_consumer's).
source "$(dirname "$0")/../measure/e2e_sampling.bash"
brief_sampling "$tmp/thresholds"
backends=(cpu)
"$exe" list --backend vulkan > "$tmp/list_vulkan.txt"
grep -q "scale/vulkan" "$tmp/list_vulkan.txt" && backends+=(vulkan)
for backend in "${backends[@]}"; do
  # By name on the CPU; on Vulkan the plain default suite, which must be these same cases: the
  # kernels out of it (the plan mistakes and cluster_sum below, run by name) meet no plain run.
  names=(scale blend to_bf16)
  [ "$backend" = vulkan ] && names=()
  "$exe" run "${names[@]}" --backend "$backend" --baselines "$tmp/baselines" --thresholds "$tmp/thresholds" \
    --quiet --no-judge --json "$tmp/$backend.json" > "$tmp/$backend.txt"
  python3 - "$tmp/$backend.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert sorted(c["kernel"] for c in run["cases"]) == ["blend", "scale", "scale", "to_bf16"], [c["id"] for c in run["cases"]]
for case in run["cases"]:
    assert case["verdict"] not in ("error", "skipped"), (case["id"], case["message"])
assert run["fingerprint"]["build_type"] == "Release", run["fingerprint"]
PY
done
# Expects `check CASE` to exit with `status` and print `text` (fixed strings, each of them).
refused() {
  local case_id="$1" status="$2"; shift 2
  local got=0
  "$exe" check "$case_id" --baselines "$tmp/baselines" > "$tmp/refusal.txt" 2>&1 || got=$?
  [ "$got" = "$status" ] || { cat "$tmp/refusal.txt"; echo "FAIL: $case_id exited $got, expected $status" >&2; exit 1; }
  for text in "$@"; do
    grep -qF -- "$text" "$tmp/refusal.txt" || { cat "$tmp/refusal.txt"; echo "FAIL: $case_id: no '$text'" >&2; exit 1; }
  done
}
if [[ " ${backends[*]} " == *" vulkan "* ]]; then
  refused "blend_short_push/vulkan/n=65536" 2 "shader 'blend/blend'" \
    "its push-constant block is 116 bytes, the dispatch gives 104 (offset 104 onwards would be undefined)"
  refused "blend_unbound_w/vulkan/n=65536" 2 "shader 'blend/blend'" \
    "binding 1 of set 1 has no buffer in the dispatch"
  # Mesa's llvmpipe (22.3) offers no subgroup clustered operations; another device may have them.
  if [ "$("$exe" list --machine-id --backend vulkan)" = llvmpipe ]; then
    refused "cluster_sum/vulkan/n=65536" 77 \
      "device lacks feature subgroup clustered (shader cluster_sum/cluster_sum)"
  fi
fi
ctest --test-dir "$tmp/build" -N -L consumer > "$tmp/labelled.txt"
grep -qF "scale/cpu/n=65536,factor=2" "$tmp/labelled.txt" || { cat "$tmp/labelled.txt"; echo "FAIL: LABELS not on the discovered tests" >&2; exit 1; }
# The peak kernels it carries measure % peak only: no cases of the project's suite.
if grep -q "copy/\|fma_peak/" "$tmp/labelled.txt" "$tmp/list.txt"; then
  echo "FAIL: peak kernels listed as the project's cases" >&2; exit 1
fi
if grep -q "blend_short_push\|blend_unbound_w\|cluster_sum" "$tmp/labelled.txt"; then
  echo "FAIL: a kernel outside the default suite became a CTest test" >&2; exit 1
fi
echo "OK: ${backends[*]}"
