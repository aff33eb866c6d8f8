#!/usr/bin/env bash
# Another project uses perfgate through find_package(perfgate): install perfgate into a prefix,
# build tests/consumer against it (shader variants from one source, defines, an include folder;
# a 116-byte struct push constant, two descriptor sets and an offset binding; no custom command,
# no file copied from perfgate's source), run its cases on the CPU and on Vulkan where there is
# a device (each checked against its float64 reference), and list its perf tests through ctest.
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
for id in "scale/cpu/n=65536,factor=2" "scale/cpu/n=65536,factor=3" "blend/cpu/n=65536"; do
  grep -qF "$id" "$tmp/list.txt" || { cat "$tmp/list.txt"; echo "FAIL: $id not listed" >&2; exit 1; }
done
export PERFGATE_CACHE_DIR="$tmp/cache"
backends=(cpu)
"$exe" list --backend vulkan > "$tmp/list_vulkan.txt"
grep -q "scale/vulkan" "$tmp/list_vulkan.txt" && backends+=(vulkan)
for backend in "${backends[@]}"; do
  "$exe" run scale blend --backend "$backend" --baselines "$tmp/baselines" --quiet --no-judge \
    --json "$tmp/$backend.json" > "$tmp/$backend.txt"
  python3 - "$tmp/$backend.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
assert sorted(c["kernel"] for c in run["cases"]) == ["blend", "scale", "scale"], [c["id"] for c in run["cases"]]
for case in run["cases"]:
    assert case["verdict"] not in ("error", "skipped"), (case["id"], case["message"])
assert run["fingerprint"]["build_type"] == "Release", run["fingerprint"]
PY
done
ctest --test-dir "$tmp/build" -N -L consumer > "$tmp/labelled.txt"
grep -qF "scale/cpu/n=65536,factor=2" "$tmp/labelled.txt" || { cat "$tmp/labelled.txt"; echo "FAIL: LABELS not on the discovered tests" >&2; exit 1; }
# The peak kernels it carries measure % peak only: no cases of the project's suite.
if grep -q "copy/\|fma_peak/" "$tmp/labelled.txt" "$tmp/list.txt"; then
  echo "FAIL: peak kernels listed as the project's cases" >&2; exit 1
fi
echo "OK: ${backends[*]}"
