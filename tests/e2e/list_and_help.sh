#!/usr/bin/env bash
# What a newcomer reads first says what is there: `list --kernel copy` lists copy and its cases
# only (it once listed all 27 kernels above copy's cases), and `report --help` says where JUnit
# carries the metrics, which the JUnit written from a results file bears out (it said
# "metrics as properties"; they are name: value lines in each testcase's system-out), and
# `list` names the host every result names, by the name PERFGATE_HOST_ID gives it.
# Runs beside other tests: it lists and prints; nothing measured.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$PERFGATE" list --kernel copy >"$tmp/list.txt" 2>&1
kernels=$(sed -n '/^kernels:/,/^cases/p' "$tmp/list.txt" | grep -E '^  [a-z_0-9]+ +\[' | awk '{print $1}')
[ "$kernels" = copy ] || { cat "$tmp/list.txt"; fail "list --kernel copy lists kernels: $(echo $kernels)"; }
grep -qE '^  copy/cpu/' "$tmp/list.txt" || fail "list --kernel copy lists no copy case"
grep -E '^  [a-z_0-9]+/(cpu|vulkan)/' "$tmp/list.txt" | grep -vq '^  copy/' && fail "list --kernel copy lists another kernel's case"
# Unnarrowed, every kernel.
[ "$("$PERFGATE" list | sed -n '/^kernels:/,/^cases/p' | grep -cE '^  [a-z_0-9]+ +\[')" -gt 1 ] ||
  fail "plain list lists one kernel"

"$PERFGATE" report --help >"$tmp/help.txt"
grep -q "system-out" "$tmp/help.txt" || fail "report --help does not say the metrics are in system-out"
grep -q "metrics as properties" "$tmp/help.txt" && fail "report --help still says metrics as properties"
"$PERFGATE" report "$PERFGATE_SOURCE_DIR/tests/notify/fixtures/run_mixed.json" --junit "$tmp/run.xml"
python3 - "$tmp/run.xml" <<'PY' || fail "the JUnit's metrics are not in each testcase's system-out"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall(".//testcase")
assert cases
for case in cases:
    assert case.find("properties") is None, "a testcase carries properties"
    out = case.find("system-out").text
    assert "latency_ns.median: " in out, out
PY
# The host every result names: what list says is the digest of the name the environment gives.
named=$(printf 'perfgate host named ci-runner-7' | sha256sum | cut -c1-12)
PERFGATE_HOST_ID=ci-runner-7 "$PERFGATE" list --kernel copy >"$tmp/named.txt" 2>&1
grep -qE "^  host +$named +\(a digest of PERFGATE_HOST_ID\)$" "$tmp/named.txt" ||
  { cat "$tmp/named.txt"; fail "list does not name the host PERFGATE_HOST_ID gives"; }
env -u PERFGATE_HOST_ID "$PERFGATE" list --kernel copy >"$tmp/unnamed.txt" 2>&1
grep -E '^  host ' "$tmp/unnamed.txt" | grep -q "PERFGATE_HOST_ID names a host" ||
  { cat "$tmp/unnamed.txt"; fail "list does not say how to name a host"; }
grep -q "$named" "$tmp/unnamed.txt" && fail "the named host's id without the name"

echo "OK: list narrowed to copy; JUnit metrics where --help says; the host named"
