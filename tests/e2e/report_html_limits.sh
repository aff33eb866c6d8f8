#!/usr/bin/env bash
# A report too large to draw says so at once: `report --html` of one case more than a page draws
# (kMaxHtmlCases, 5000; docs/reports.md) exits 2 naming the count and the limit, writes no page
# and appends nothing to the history; at the limit the page is drawn. A results file over 128 MiB
# (a 1e6-case run is 1.3 GB; parsed whole it took 8.9 GB) is refused before a byte is parsed.
# Runs beside other tests: it renders generated results, measures nothing.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
WORK="$PERFGATE_E2E_TMP"
rm -rf "$WORK" && mkdir -p "$WORK"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# cases N OUT: the fixture run with its first case repeated N times under other ids.
cases() {
  python3 - "$PERFGATE_SOURCE_DIR/tests/notify/fixtures/run_mixed.json" "$1" "$2" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
first, n = d["cases"][0], int(sys.argv[2])
d["cases"] = []
for i in range(n):
    c = copy.deepcopy(first)
    c["id"] = f"copy/cpu/n={i + 1}"
    c["params"] = [{"name": "n", "value": i + 1}]
    d["cases"].append(c)
json.dump(d, open(sys.argv[3], "w"))
PY
}
cases 5001 "$WORK/over.json"
cases 5000 "$WORK/at.json"

out="$(timeout 120 "$PERFGATE" report "$WORK/over.json" --html "$WORK/over.html" --history "$WORK/history" \
  --append-history 2>&1)"
rc=$?
[ "$rc" = 2 ] && grep -q "5001 cases, more than the 5000 an HTML page draws" <<<"$out" ||
  bad "report --html of 5001 cases exited $rc (want 2 naming the count and the limit): $out"
[ ! -e "$WORK/over.html" ] || bad "a page was written for 5001 cases"
[ ! -e "$WORK/history" ] || bad "the history was appended to before the report was refused"
echo "over the limit: $out"

timeout 300 "$PERFGATE" report "$WORK/at.json" --html "$WORK/at.html" >"$WORK/at.out" 2>&1 ||
  bad "report --html of 5000 cases failed: $(head -c 400 "$WORK/at.out")"
[ "$(grep -o 'copy/cpu/n=[0-9]*' "$WORK/at.html" | sort -u | wc -l)" = 5000 ] ||
  bad "the page of 5000 cases does not name each case"
echo "at the limit: $(du -h "$WORK/at.html" | cut -f1) page"

# Over the size limit, refused from the file's size alone (a sparse file: nothing to read).
truncate -s 129M "$WORK/huge.json"
for cmd in "report $WORK/huge.json --html $WORK/huge.html" "report $WORK/huge.json" "compare $WORK/at.json $WORK/huge.json"; do
  out="$(timeout 60 "$PERFGATE" $cmd 2>&1)"
  rc=$?
  [ "$rc" = 2 ] && grep -q "huge.json: 129 MiB, over the 128 MiB a results file may have" <<<"$out" ||
    bad "perfgate $cmd exited $rc (want 2 naming the size): $out"
done
exit $fail
