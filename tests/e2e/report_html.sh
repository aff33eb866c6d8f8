#!/usr/bin/env bash
# The HTML report of a real run renders in a real browser: two runs of the copy kernel (the
# first as the baseline), judged with `perfgate compare` (tests/report/e2e_runs.bash), appended to a history folder, then
# `perfgate report` writes HTML, JUnit, Markdown and Google Benchmark JSON. Headless Chromium
# screenshots the page (non-blank PNG) and dumps its DOM with console logging on: no console
# errors, no failed loads. The JUnit is checked with python3's xml.etree.
# PERFGATE_REPORT_SCREENSHOT=FILE copies the screenshot out (docs/report.png is made this way).
# Runs beside other tests: it asserts that the page shows the verdicts the results hold, whatever they are.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}"
source "$(dirname "$0")/../report/browser.bash"
[ -x "$CHROMIUM" ] || { echo "no $CHROMIUM (Debian package chromium): skipping"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipping"; exit 77; }
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
source "$(dirname "$0")/../report/e2e_runs.bash"
if ! "$PERFGATE" report --help >"$tmp/help.out" 2>&1; then
  echo "this perfgate has no report command yet:"; cat "$tmp/help.out"; exit 77
fi
fail() { echo "FAIL: $*" >&2; exit 1; }

# The two real runs and their comparison, measured once for the report tests (the fixture).
copy_runs "$tmp" || fail "no runs to report"

"$PERFGATE" report "$tmp/baseline.json" --history "$tmp/history" --append-history --markdown "$tmp/baseline.md"
"$PERFGATE" report "$tmp/judged.json" --baseline "$tmp/baseline.json" --history "$tmp/history" --append-history \
  --html "$tmp/report.html" --junit "$tmp/junit.xml" --markdown "$tmp/summary.md" --gbench "$tmp/gbench.json"
"$PERFGATE" report "$tmp/judged.json" >"$tmp/stdout.md"
cmp -s "$tmp/stdout.md" "$tmp/summary.md" || fail "report without outputs must print the Markdown"
grep -q '^| verdict | case |' "$tmp/summary.md" || fail "no verdict table in the Markdown"
"$PERFGATE" history 'copy/cpu/*' --history "$tmp/history" | tee "$tmp/history.out"
[ "$(grep -c '^  20' "$tmp/history.out")" -eq 4 ] || fail "history should list 2 runs of 2 cases"

python3 - "$tmp" <<'PY' || fail "JUnit, Google Benchmark JSON or history do not match the run"
import json, sys, xml.etree.ElementTree as ET
tmp = sys.argv[1]
run = json.load(open(f"{tmp}/judged.json"))
root = ET.parse(f"{tmp}/junit.xml").getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall("./testsuite/testcase")
assert len(cases) == len(run["cases"]) == 2, (len(cases), len(run["cases"]))
for case, expected in zip(sorted(cases, key=lambda c: c.get("name")), sorted(run["cases"], key=lambda c: c["id"])):
    assert case.get("name") == expected["id"], (case.get("name"), expected["id"])
    props = dict(l.split(": ", 1) for l in case.findtext("system-out").splitlines() if ": " in l)
    assert props["verdict"] == expected["verdict"], props
    assert float(props["latency_ns.median"]) > 0, props
    if expected["judgements"]:  # the time's change: raw, or relative to the reference where calibrated
        assert "latency_ns.change_pct" in props or "relative_latency.change_pct" in props, props
    failed = case.find("failure") is not None
    assert failed == (expected["verdict"] in ("regressed", "error")), (expected["verdict"], failed)
gb = json.load(open(f"{tmp}/gbench.json"))
names = {b["run_name"] for b in gb["benchmarks"]}
assert names == {c["id"] for c in run["cases"]}, names
assert {b["aggregate_name"] for b in gb["benchmarks"] if b["run_type"] == "aggregate"} == {"mean", "median", "stddev"}
assert all(b["time_unit"] == "ns" for b in gb["benchmarks"])
lines = [json.loads(l) for l in open(f"{tmp}/history/{run['fingerprint']['machine_id']}.jsonl")]
assert len(lines) == 4, len(lines)
PY

page="file://$tmp/report.html"
render "$page" report 1400 2000
grep -q "perfgate report" "$tmp/report.dom.html" || fail "the rendered DOM has no report"
[ "$(grep -o '<svg' "$tmp/report.dom.html" | wc -l)" -ge 4 ] || fail "the rendered DOM lacks the plots"
grep -q 'id="roofline"' "$tmp/report.dom.html" && grep -q 'id="distributions"' "$tmp/report.dom.html" &&
  grep -q 'id="history"' "$tmp/report.dom.html" || fail "roofline, distribution or history section missing"

check_screenshot "$tmp/report.png" 1400 2000
if [ -n "${PERFGATE_REPORT_SCREENSHOT:-}" ]; then cp "$tmp/report.png" "$PERFGATE_REPORT_SCREENSHOT"; fi
echo "OK: report rendered in headless chromium; JUnit, Markdown, Google Benchmark JSON and history checked"
