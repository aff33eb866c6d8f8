#!/usr/bin/env bash
# Samples no measurement gives (1.7e308, -1e300, zero or negative times) in a results file:
# compare and report refuse the file (exit 2) naming it and the case; nothing is judged from
# them, and no `"change_pct": null` is ever written.
# Runs beside other tests: it judges stored files, measures nothing.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
fixture="$PERFGATE_SOURCE_DIR/tests/notify/fixtures/run_mixed.json"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# A fixture whose first case's first latency sample is VALUE (metric METRIC).
make() {  # make FILE METRIC VALUE
  python3 - "$fixture" "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cases"][0]["metrics"][sys.argv[3]]["samples"][0] = float(sys.argv[4])
open(sys.argv[2], "w").write(json.dumps(d))
PY
}

"$PERFGATE" compare "$fixture" "$fixture" --json "$tmp/same.json" >/dev/null 2>&1
[ -s "$tmp/same.json" ] || bad "compare of a good file with itself wrote no results"
for value in 1.7e308 -1e300 0 -5 1e-300; do
  make "$tmp/bad.json" latency_ns "$value"
  for cmd in "compare $fixture $tmp/bad.json --json $tmp/out.json" "compare $tmp/bad.json $fixture --json $tmp/out.json" \
    "report $tmp/bad.json"; do
    rm -f "$tmp/out.json"
    out=$("$PERFGATE" $cmd 2>&1)
    rc=$?
    if [ "$rc" -ne 2 ] || ! grep -q "bad.json: case copy/cpu/n=16777216: latency_ns" <<<"$out"; then
      bad "perfgate $cmd with a latency sample of $value exited $rc (want 2 naming the file and case):"
      echo "$out" | head -5
    else
      echo "ok: $value: $(grep "bad.json" <<<"$out" | head -1)"
    fi
    if [ -e "$tmp/out.json" ] && grep -q '"change_pct": null' "$tmp/out.json"; then bad "$cmd wrote change_pct null"; fi
  done
done
make "$tmp/bad.json" bandwidth_gbps -1e300
out=$("$PERFGATE" report "$tmp/bad.json" 2>&1)
[ $? -eq 2 ] && grep -q "bandwidth_gbps" <<<"$out" || bad "a negative bandwidth was read: $out"
exit $fail
