#!/usr/bin/env bash
# The README's "In another project" example, verbatim: every fenced block marked
# `<!-- readme_consumer: PATH -->` is written to PATH of a fresh project; the block marked
# `install` runs in a folder whose `build` is perfgate's build, the block marked `commands` in the
# project, both as written but for the prefix (`/opt/perfgate` becomes a scratch folder). The
# project is built against the installed perfgate and run on the CPU (and on Vulkan where there is
# a device). The run must pass its correctness checks with the installed thresholds, and leave a
# valid peaks cache.
# Runs beside other tests: it builds and measures without judging (--no-judge; the project has no
# baselines, so the README's own `run` and `ctest -L perf` judge nothing either).
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/project" "$tmp/perfgate"
ln -s "$PERFGATE_BUILD_DIR" "$tmp/perfgate/build"

python3 - "$PERFGATE_SOURCE_DIR/README.md" "$tmp/project" "$tmp" <<'PY2'
import os, re, sys
readme, out, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"<!-- readme_consumer: (\S+) -->\n```\w*\n(.*?)```", text, re.S)
names = [name for name, _ in blocks]
want = ["CMakeLists.txt", "commands", "install", "kernels/scale/scale.comp", "kernels/scale/scale.cpp"]
if sorted(names) != want:
    sys.exit(f"README consumer example: expected {want}, found {names}")
for name, body in blocks:
    if name in ("install", "commands"):
        if "/opt/perfgate" not in body:
            sys.exit(f"README consumer example: the {name} block names no /opt/perfgate")
        path = os.path.join(tmp, name + ".sh")
        body = "set -euxo pipefail\n" + body.replace("/opt/perfgate", os.path.join(tmp, "prefix"))
    else:
        path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w", encoding="utf-8").write(body)
PY2

export PERFGATE_CACHE_DIR="$tmp/cache"
# The generator and parallelism through CMake's environment, so the commands stay as written.
command -v ninja >/dev/null && export CMAKE_GENERATOR=Ninja
export CMAKE_BUILD_PARALLEL_LEVEL=2
(cd "$tmp/perfgate" && bash "$tmp/install.sh") >/dev/null
# The README's commands: configure and build, the table, the perf tests (none judged: the
# project has no baselines yet, so each reports no-baseline or skips).
(cd "$tmp/project" && bash "$tmp/commands.sh") > "$tmp/commands.txt" 2>&1 ||
  { cat "$tmp/commands.txt"; echo "FAIL: the README's commands failed" >&2; exit 1; }
grep -q "scale/cpu/n=1048576" "$tmp/commands.txt" ||
  { cat "$tmp/commands.txt"; echo "FAIL: the README's run did not run scale/cpu" >&2; exit 1; }
exe="$tmp/project/build/my_perfgate"

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
ctest --test-dir "$tmp/project/build" -N -L my_kernels > "$tmp/labelled.txt"
grep -qF "scale/cpu/n=1048576" "$tmp/labelled.txt" || { cat "$tmp/labelled.txt"; echo "FAIL: LABELS not on the discovered tests" >&2; exit 1; }
echo OK
