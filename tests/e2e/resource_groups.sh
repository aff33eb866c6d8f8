#!/usr/bin/env bash
# Several GPUs under real ctest: `perfgate list --resource-spec` writes this host's spec; a spec
# declaring two GPU slots (the one Vulkan device here listed twice, as 0 and 0_1) lets
# `ctest -j2 --resource-spec-file` run two Vulkan perf tests at once. ctest's own log (the order
# of its Start and Test lines) and the results files (each case's gpu_slot and device_uuid)
# show two tests ran at once (one at a time where the device is a CPU implementation such as
# llvmpipe: those tests run alone), never two on one slot, and each on the device its slot names;
# the Test.xml ctest keeps (-T Test) records the same slot for each test as its results file.
# Without a spec, a Vulkan check waits for the lock of its device.
# Runs beside other tests: it judges nothing (an empty baselines folder: each perf test checks
# and skips), and what it asserts is how ctest and the device lock schedule the checks (from
# ctest's own log and the results files), which a neighbour's load only slows.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
export PERFGATE_CACHE_DIR="$tmp/cache"
# The test is about scheduling, not verdicts: an empty baselines folder, so that no perf test is
# judged against the committed baselines of a machine like this one (each checks and skips).
export PERFGATE_BASELINES_DIR="$tmp/baselines"
mkdir -p "$PERFGATE_BASELINES_DIR"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$PERFGATE_CACHE_DIR"

set +e
"$PERFGATE" list --resource-spec "$tmp/host.json" 2>"$tmp/list.err"
rc=$?
set -e
cat "$tmp/list.err"
[ "$rc" -eq 77 ] && { echo "no Vulkan device here: skipping"; exit 77; }
[ "$rc" -eq 0 ] || fail "perfgate list --resource-spec exited $rc"
"$PERFGATE" list --resource-spec >"$tmp/stdout.json" 2>/dev/null
cmp -s "$tmp/host.json" "$tmp/stdout.json" || fail "--resource-spec without FILE must print the same spec"

# The host's spec is CTest's format; the first device, offered twice, makes two slots.
python3 - "$tmp" <<'PY' || fail "the resource spec is not CTest's version 1.0 format"
import json, sys
tmp = sys.argv[1]
spec = json.load(open(f"{tmp}/host.json"))
assert spec["version"] == {"major": 1, "minor": 0}, spec["version"]
assert len(spec["local"]) == 1 and list(spec["local"][0]) == ["gpus"], spec["local"]
gpus = spec["local"][0]["gpus"]
assert gpus and all(g["id"].isdigit() and g["slots"] == 1 for g in gpus), gpus
first = gpus[0]["id"]
spec["local"][0]["gpus"] = [{"id": first, "slots": 1}, {"id": first + "_1", "slots": 1}]
json.dump(spec, open(f"{tmp}/two-slots.json", "w"), indent=2)
open(f"{tmp}/device", "w").write(first)
PY
device=$(cat "$tmp/device")
uuid=$(sed -n "s/^perfgate list: gpus id $device: .*uuid \([0-9a-f]*\))$/\1/p" "$tmp/list.err")
[ -n "$uuid" ] || fail "perfgate list named no uuid for device $device"

# A project whose perf tests are four Vulkan cases of this perfgate, registered by the same
# CMake function as perfgate's own (ctest/PerfgateTests.cmake).
mkdir -p "$tmp/project"
cat >"$tmp/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(slots NONE)
enable_testing()
add_executable(perfgate IMPORTED)
set_target_properties(perfgate PROPERTIES IMPORTED_LOCATION "$PERFGATE")
include("$PERFGATE_SOURCE_DIR/ctest/PerfgateTests.cmake")
perfgate_discover_tests(perfgate ARGS --backend vulkan --kernel copy --axis n=262144,524288,1048576,2097152)
CMAKE
cmake -S "$tmp/project" -B "$tmp/build" >/dev/null
ctest --test-dir "$tmp/build" -N -L perf | tee "$tmp/list.out"
[ "$(grep -c 'copy/vulkan/' "$tmp/list.out")" -eq 4 ] || fail "expected 4 Vulkan perf tests"
# Here and in perfgate's own suite: a Vulkan perf test asks for one GPU, a CPU perf test runs alone.
ctest --test-dir "$tmp/build" --show-only=json-v1 >"$tmp/tests.json"
# perfgate's own suite is listed from a folder of its own that includes the build's tests: ctest
# run in the build folder itself would write its Testing/Temporary/LastTest.log over the log of
# the ctest running this test.
mkdir -p "$tmp/suite-view"
echo "subdirs(\"$PERFGATE_BUILD_DIR\")" >"$tmp/suite-view/CTestTestfile.cmake"
ctest --test-dir "$tmp/suite-view" -L perf --show-only=json-v1 >"$tmp/suite.json"
# A Vulkan device implemented on the CPU (llvmpipe) shares the cores: its tests also run alone.
needs=$("$PERFGATE" list --ctest --backend vulkan --kernel copy | awk 'NR == 1 {print $4}')
[ "$needs" = gpu ] || [ "$needs" = machine ] || fail "list --ctest named '$needs' as what a Vulkan test needs"
python3 - "$needs" "$tmp/tests.json" "$tmp/suite.json" <<'PY' || fail "Vulkan perf tests must ask for one GPU (and run alone on a CPU implementation), CPU ones run serially"
import json, sys
seen = {"cpu": 0, "vulkan": 0}
vulkan_alone = sys.argv[1] == "machine"
for path in sys.argv[2:]:
    for t in json.load(open(path))["tests"]:
        backend = "vulkan" if "/vulkan/" in t["name"] else "cpu" if "/cpu/" in t["name"] else None
        if backend is None:
            continue
        seen[backend] += 1
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        if backend == "vulkan":
            assert props.get("RESOURCE_GROUPS") == [{"requirements": [{".type": "gpus", "slots": 1}]}], props
            assert bool(props.get("RUN_SERIAL")) == vulkan_alone, (t["name"], props)
        else:
            assert props.get("RUN_SERIAL") is True and "RESOURCE_GROUPS" not in props, (t["name"], props)
assert seen["cpu"] > 0 and seen["vulkan"] > 4, seen
PY

# The run: two slots, two jobs. Without -V ctest prints its scheduling in order: "Start N: name"
# when a test starts, "Test #N: name ... Passed" when it ends. With -T Test it also keeps
# Testing/<tag>/Test.xml, which records the resource allocation of each test.
ctest --test-dir "$tmp/build" -T Test -L perf -j2 --resource-spec-file "$tmp/two-slots.json" 2>&1 | tee "$tmp/ctest.out"
grep -q 'Insufficient resources\|Failed\|Not Run' "$tmp/ctest.out" && fail "a perf test did not run (above)"

python3 - "$tmp" "$device" "$uuid" "$needs" <<'PY' || fail "slots were shared, or tests overlapped other than as they need, or a device went unrecorded"
import glob, json, re, sys
tmp, device, uuid, needs = sys.argv[1:]
at_once = 2 if needs == "gpu" else 1  # on a CPU implementation each runs alone (RUN_SERIAL)
slot_of = {}
for path in glob.glob(f"{tmp}/build/perfgate-results/*.json"):
    case = json.load(open(path))["cases"][0]
    assert case.get("device_uuid") == uuid, (case["id"], case.get("device_uuid"), uuid)
    slot_of[case["id"]] = case.get("gpu_slot")
assert len(slot_of) == 4, slot_of
assert set(slot_of.values()) <= {device, device + "_1"}, slot_of
assert needs != "gpu" or len(set(slot_of.values())) == 2, f"both slots should be used: {slot_of}"
running, most = {}, 0
for line in open(f"{tmp}/ctest.out"):
    if m := re.search(r"Start +\d+: (\S+)", line):
        name = m.group(1)
        if name in slot_of:
            slot = slot_of[name]
            assert slot not in running.values(), f"{name} started on slot {slot} while {running} ran"
            running[name] = slot
            most = max(most, len(running))
    elif m := re.search(r"Test +#\d+: (\S+)", line):
        running.pop(m.group(1), None)
assert most == at_once, f"at most {most} perf tests ran at once, expected {at_once}"
# ctest's own record of what it gave each test agrees with what each test says it ran on.
import xml.etree.ElementTree as ET
(test_xml,) = glob.glob(f"{tmp}/build/Testing/*/Test.xml")
given = {}
for t in ET.parse(test_xml).getroot().iter("Test"):
    env = {m.findtext("Value") for m in t.iter("NamedMeasurement") if m.get("name") == "Environment"}
    for line in "\n".join(env).splitlines():
        if line.startswith("CTEST_RESOURCE_GROUP_0_GPUS="):
            given[t.findtext("Name")] = re.match(r"id:(\w+),slots:1$", line.split("=", 1)[1]).group(1)
assert given == slot_of, (given, slot_of)
assert (combined := json.load(open(f"{tmp}/build/perfgate-results.json"))), "no merged results"
assert sorted(c["gpu_slot"] for c in combined["cases"]) == sorted(slot_of.values())
print(f"4 Vulkan perf tests on slots {sorted(set(slot_of.values()))} of device {device} ({uuid}), {at_once} at once")
PY

# Without a resource spec (ctest then ignores RESOURCE_GROUPS) Vulkan checks take turns on a
# lock of the device in the cache folder: while this script holds it, a check waits; once it is
# released the check takes it (writing its pid into it), measures, and removes it as it lets go.
lock="$PERFGATE_CACHE_DIR/device-$uuid.lock"
mkdir -p "$PERFGATE_CACHE_DIR"
exec 9>"$lock"
flock 9
"$PERFGATE" check copy/vulkan/n=262144,wg=256 --json "$tmp/waited.json" >"$tmp/waited.out" 2>&1 &
checker=$!
sleep 2
[ ! -e "$tmp/waited.json" ] || fail "a check measured while its device was locked"
kill -0 "$checker" 2>/dev/null || { cat "$tmp/waited.out"; fail "the check ended instead of waiting for the device"; }
flock -u 9
exec 9>&-
wait "$checker" || [ $? -eq 77 ] || { cat "$tmp/waited.out"; fail "the check failed after the device was free"; }
[ -e "$tmp/waited.json" ] || { cat "$tmp/waited.out"; fail "the check did not measure once its device was free"; }
# The holder removes the lock file as it lets go (core/file_lock.h): none is left in the folder.
[ ! -e "$lock" ] || fail "the check left its device lock $lock behind ($(cat "$lock"))"
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cases'][0]; assert c['device_uuid']==sys.argv[2] and not c.get('gpu_slot'), c" \
  "$tmp/waited.json" "$uuid" || fail "a check without a resource spec must record its device and no slot"

# An explicit --device wins over ctest's slot, and a malformed slot is bad input (exit 2).
CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS="id:${device}_9,slots:1" \
  "$PERFGATE" check copy/vulkan/n=262144,wg=256 --device "$device" --json "$tmp/explicit.json" >/dev/null || [ $? -eq 77 ]
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['cases'][0]; assert not c.get('gpu_slot'), c.get('gpu_slot')" \
  "$tmp/explicit.json" || fail "--device must win over CTEST_RESOURCE_GROUP_0_GPUS"
set +e
CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS="id:gpu_a,slots:1" \
  "$PERFGATE" check copy/vulkan/n=262144,wg=256 >"$tmp/bad.out" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q 'CTEST_RESOURCE_GROUP_0_GPUS=id:gpu_a' "$tmp/bad.out" || fail "a foreign gpus id must exit 2 naming it (exit $rc)"
echo OK
