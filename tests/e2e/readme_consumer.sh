#!/usr/bin/env bash
# The README's "In another project" example, verbatim: every fenced block marked
# `<!-- readme_consumer: PATH -->` is written to PATH of a fresh project, which is built against
# an installed perfgate and run on the CPU (and on Vulkan where there is a device). The run must
# pass its correctness checks with the installed thresholds, and leave a valid peaks cache.
# Runs beside other tests: it builds and measures without judging (--no-judge).
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/project"
cmake --install "$PERFGATE_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null

python3 - "$PERFGATE_SOURCE_DIR/README.md" "$tmp/project" <<'PY'
import os, re, sys
readme, out = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"<!-- readme_consumer: (\S+) -->\n```\w*\n(.*?)```", text, re.S)
names = [name for name, _ in blocks]
if sorted(names) != ["CMakeLists.txt", "kernels/scale/scale.comp", "kernels/scale/scale.cpp"]:
    sys.exit(f"README consumer example: expected CMakeLists.txt and the scale kernel, found {names}")
for name, body in blocks:
    path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w", encoding="utf-8").write(body)
PY

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$tmp/project" -B "$tmp/build" "${generator[@]}" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" -j 2
exe="$tmp/build/my_perfgate"
export PERFGATE_CACHE_DIR="$tmp/cache"

# No thresholds/ folder in the project: the installed defaults are found with nothing copied.
"$exe" run --backend cpu --json "$tmp/cpu.json" --quiet --no-judge > "$tmp/cpu.txt"
grep -q "scale/cpu/n=1048576" "$tmp/cpu.txt" || { cat "$tmp/cpu.txt"; echo "FAIL: scale/cpu not run" >&2; exit 1; }
python3 - "$tmp/cpu.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
case = next(c for c in run["cases"] if c["id"] == "scale/cpu/n=1048576")
assert case["verdict"] != "error", case["message"]
assert "rel L2 error 0" in case["check"], case["check"]
# The project's own build, not perfgate's: the README's CMakeLists sets Release.
assert run["fingerprint"]["build_type"] == "Release", run["fingerprint"]
assert "-O3" in run["fingerprint"]["build_flags"], run["fingerprint"]
assert case["metrics"]["pct_peak_bw"]["summary"]["median"] > 0, "no % peak"
PY

"$exe" list --backend vulkan > "$tmp/list_vulkan.txt"
if grep -q "scale/vulkan" "$tmp/list_vulkan.txt"; then
  rc=0
  "$exe" run --backend vulkan --json "$tmp/vk.json" --quiet --no-judge > "$tmp/vk.txt" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$tmp/vk.txt"; echo "FAIL: vulkan run exited $rc" >&2; exit 1; }
  grep -q "scale/vulkan" "$tmp/vk.txt" || { cat "$tmp/vk.txt"; echo "FAIL: scale/vulkan not run" >&2; exit 1; }
fi

# The consumer measured the peaks with perfgate's own peak kernels: the cache holds no zero.
python3 - "$tmp/cache" <<'PY'
import glob, json, sys
files = glob.glob(sys.argv[1] + "/peaks-*.json")
assert files, "no peaks cache written"
for f in files:
    peaks = json.load(open(f))
    assert peaks["bandwidth_gbps"] > 0 and peaks["gflops"] > 0, (f, peaks)
PY

# LABELS reach every discovered test.
ctest --test-dir "$tmp/build" -N -L my_kernels > "$tmp/labelled.txt"
grep -qF "scale/cpu/n=1048576" "$tmp/labelled.txt" || { cat "$tmp/labelled.txt"; echo "FAIL: LABELS not on the discovered tests" >&2; exit 1; }
echo OK
