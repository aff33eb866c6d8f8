#!/usr/bin/env bash
# A real run's JUnit report follows the Jenkins xUnit JUnit schema's rules (tests/e2e/junit_rules.py):
# two cases of the copy kernel run for real (tests/report/e2e_runs.bash), then `perfgate report --junit`.
# Runs beside other tests: it asserts the report's form, not the verdicts of what it measured.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
source "$(dirname "$0")/../report/e2e_runs.bash"
copy_runs "$tmp" || { echo "FAIL: no results" >&2; exit 1; }
"$PERFGATE" report "$tmp/current.json" --junit "$tmp/junit.xml"
python3 "$PERFGATE_SOURCE_DIR/tests/e2e/junit_rules.py" "$tmp/junit.xml"
# The checker itself: a report with a 6-decimal time and testcase properties is refused.
sed -e 's/time="\([0-9]*\)\.\([0-9]\{3\}\)"/time="\1.\2456"/' "$tmp/junit.xml" > "$tmp/bad_time.xml"
if python3 "$PERFGATE_SOURCE_DIR/tests/e2e/junit_rules.py" "$tmp/bad_time.xml" 2>/dev/null; then
  echo "FAIL: the checker accepted 6-decimal times" >&2; exit 1
fi
sed -e 's|<system-out>|<properties><property name="a" value="b"/></properties><system-out>|' "$tmp/junit.xml" > "$tmp/bad_props.xml"
if python3 "$PERFGATE_SOURCE_DIR/tests/e2e/junit_rules.py" "$tmp/bad_props.xml" 2>/dev/null; then
  echo "FAIL: the checker accepted testcase properties" >&2; exit 1
fi
echo OK
