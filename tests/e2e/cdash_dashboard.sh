#!/usr/bin/env bash
# The CDash dashboard script end to end: `ctest -S ctest/perfgate_dashboard.cmake` configures and
# builds a project using the installed perfgate package (a copy of tests/consumer), runs its CPU
# perf test and submits to a local CDash stand-in (tests/ctest/cdash_receiver.py on loopback, answering
# like submit.php). The received Test.xml must carry the perf test with perfgate's metrics as
# numeric measurements, under the machine id as the build name, and so must the perf test with
# no baseline yet, which ctest counts as skipped.
# Runs beside other tests: the perf test's verdict is not its subject (a failed one is submitted and
# allowed), and its proposal's thresholds allow any spread.
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipping"; exit 77; }
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
receiver_pid=""
stop_receiver() { [ -z "$receiver_pid" ] || { kill "$receiver_pid" 2>/dev/null; wait "$receiver_pid" 2>/dev/null; } || true; }
trap stop_receiver EXIT
fail() {
  echo "FAIL: $*" >&2
  [ -f "$tmp/cdash/requests.log" ] && { echo "--- requests" >&2; cat "$tmp/cdash/requests.log" >&2; }
  exit 1
}

python3 "$PERFGATE_SOURCE_DIR/tests/ctest/cdash_receiver.py" --port-file "$tmp/port" --store "$tmp/cdash" \
  >"$tmp/receiver.log" 2>&1 &
receiver_pid=$!
for _ in $(seq 1 600); do
  [ -s "$tmp/port" ] && break
  kill -0 "$receiver_pid" 2>/dev/null || { cat "$tmp/receiver.log"; fail "the CDash stand-in exited"; }
  sleep 0.1
done
[ -s "$tmp/port" ] || fail "the CDash stand-in reported no port"
url="http://127.0.0.1:$(cat "$tmp/port")/submit.php?project=perfgate"

cmake --install "$PERFGATE_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null
# The user's project: tests/consumer with its own thresholds folder, as a real one keeps.
cp -r "$PERFGATE_SOURCE_DIR/tests/consumer" "$tmp/project"
# This test is about the dashboard, not the machine's noise: its two-run proposal is judged under
# the shipped thresholds but for propose_max_allowed_pct, which beside a parallel build refused it
# (runs 28% apart; tests/e2e/baseline_busy.sh tests that refusal), and each measurement, the perf
# test's too, is brief (tests/measure/e2e_sampling.bash).
source "$(dirname "$0")/../measure/e2e_sampling.bash"
brief_sampling "$tmp/project/thresholds"
sed -i -E 's/^( +propose_max_allowed_pct:) [0-9.]+/\1 100000/' "$tmp/project/thresholds/default.yaml"
grep -q 'propose_max_allowed_pct: 100000' "$tmp/project/thresholds/default.yaml" || fail "lifting propose_max_allowed_pct"
export PERFGATE_CACHE_DIR="$tmp/cache"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$PERFGATE_CACHE_DIR"
# An approved baseline for this machine first (a case without one is skipped unmeasured).
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$tmp/project" -B "$tmp/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" >/dev/null
"$tmp/build/consumer_perfgate" baseline propose scale/cpu/n=65536,factor=2 --runs 2 --quiet --out "$tmp/candidate.yaml" \
  >"$tmp/propose.log" 2>&1 || { cat "$tmp/propose.log"; fail "baseline propose"; }
"$tmp/build/consumer_perfgate" baseline approve "$tmp/candidate.yaml" --by e2e --reason "dashboard test" --yes \
  >/dev/null || fail "baseline approve"

set +e
ctest -S "$PERFGATE_SOURCE_DIR/ctest/perfgate_dashboard.cmake" -V \
  -DCDASH_URL="$url" -DMODEL=Experimental -DSITE=e2e-site \
  -DSOURCE_DIR="$tmp/project" -DBINARY_DIR="$tmp/build" -DPERFGATE_EXE=consumer_perfgate \
  -DCONFIGURE_OPTIONS="-DCMAKE_BUILD_TYPE=Release;-DCMAKE_PREFIX_PATH=$tmp/prefix" -DTESTS='/cpu/' \
  >"$tmp/dashboard.out" 2>&1
rc=$?
set -e
tail -40 "$tmp/dashboard.out"
# The perf test's verdict is not this test's subject: against a two-run baseline proposed beside a
# parallel build it can fail (an unstable baseline, its fresh process too busy to judge), and the
# dashboard must then still submit and say so.
if [ "$rc" -ne 0 ]; then
  grep -q 'perf tests failed (submitted)' "$tmp/dashboard.out" || fail "ctest -S exited $rc"
  echo "the perf test failed on this machine's load; the dashboard submitted it and exited $rc"
fi
grep -q 'Submission successful' "$tmp/dashboard.out" || fail "ctest_submit did not report a successful submission"
machine=$("$tmp/build/consumer_perfgate" list --machine-id --backend cpu)

python3 - "$tmp/cdash" "$machine" <<'PY' || fail "the submitted Test.xml lacks perfgate's measurements"
import glob, sys, xml.etree.ElementTree as ET
store, machine = sys.argv[1:]
names = [p.rsplit("/", 1)[1] for p in glob.glob(f"{store}/*.xml")]
for part in ("Configure.xml", "Build.xml", "Test.xml"):
    assert any(n.endswith(part) for n in names), (part, names)
(test_xml,) = glob.glob(f"{store}/*Test.xml")
site = ET.parse(test_xml).getroot()
assert site.tag == "Site", site.tag
assert site.get("Name") == "e2e-site", site.get("Name")
assert site.get("BuildName") == machine, (site.get("BuildName"), machine)
tests = {t.findtext("Name"): t for t in site.iter("Test") if t.findtext("Name")}
case = "scale/cpu/n=65536,factor=2"
assert case in tests, sorted(tests)
measured = {m.get("name"): m for m in tests[case].iter("NamedMeasurement")}
for name in ("latency_ns", "bandwidth_gbps", "host_latency_ns"):
    m = measured.get(name)
    assert m is not None, (name, sorted(measured))
    assert m.get("type") == "numeric/double", m.get("type")
    assert float(m.findtext("Value")) > 0, (name, m.findtext("Value"))
print(f"Test.xml of build {machine}: {case} with {len(measured)} measurements, "
      f"latency_ns {float(measured['latency_ns'].findtext('Value')):.0f}")
# The case with no baseline yet: skipped by ctest, its brief measurement's figures still there.
skipped = "scale/cpu/n=65536,factor=3"
assert skipped in tests, sorted(tests)
assert tests[skipped].get("Status") == "notrun", tests[skipped].get("Status")
figures = {m.get("name"): m for m in tests[skipped].iter("NamedMeasurement")}
for name in ("latency_ns", "bandwidth_gbps"):
    m = figures.get(name)
    assert m is not None, (skipped, name, sorted(figures))
    assert m.get("type") == "numeric/double" and float(m.findtext("Value")) > 0, (name, m.findtext("Value"))
assert "SKIP_RETURN_CODE=77" in [m.findtext("Value") for m in figures.values()], sorted(figures)
print(f"{skipped} (skipped, no baseline): latency_ns {float(figures['latency_ns'].findtext('Value')):.0f}")
PY

# Bad input: no URL is an error that names the option.
set +e
ctest -S "$PERFGATE_SOURCE_DIR/ctest/perfgate_dashboard.cmake" >"$tmp/nourl.out" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q 'CDASH_URL' "$tmp/nourl.out" || fail "a dashboard without CDASH_URL must fail naming it"
echo OK
