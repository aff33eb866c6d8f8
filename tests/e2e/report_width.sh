#!/usr/bin/env bash
# The HTML report of a real judged run fits a laptop's screen: at 1366 px and at 1920 px the page
# is no wider than the window (no horizontal scrolling), and the verdict table has one line per
# case (the prose is folded behind each row). Headless Chromium measures the page through a
# wrapper page served from loopback. PERFGATE_REPORT_SHOTS=DIR keeps the screenshots
# (docs/report-1366.png and docs/report-1920.png are made this way).
# Runs beside other tests: it asserts the page's layout, not the verdicts of what it measured.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
source "$(dirname "$0")/../report/browser.bash"
[ -x "$CHROMIUM" ] && command -v python3 >/dev/null || { echo "no chromium or python3: skipping"; exit 77; }
FAILED=0
fail() { echo "FAIL: $*" >&2; FAILED=1; }
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/thresholds" "$tmp/site"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"
source "$(dirname "$0")/../measure/e2e_sampling.bash"
brief_sampling "$tmp/thresholds"
# Long case ids and every column filled: attention's stages, a copy in and out of cache (2^24
# floats, as long an id as the suite's 2^25 for half the memory to fill and check), the largest
# Q4_0 matrix-vector product (the longest of its ids).
opts=(--backend cpu --kernel copy --kernel attention_layer --kernel q4_0_matvec --axis n=65536,16777216
  --axis m=4096 --axis k=4096
  --thresholds "$tmp/thresholds" --cache-dir "$tmp/cache" --baselines "$tmp/baselines" --quiet)
for name in baseline current; do
  "$PERFGATE" run "${opts[@]}" --json "$tmp/$name.json" >"$tmp/$name.out" 2>&1
  [ -s "$tmp/$name.json" ] || { cat "$tmp/$name.out"; fail "perfgate run ($name) wrote no results"; exit 1; }
done
"$PERFGATE" compare "$tmp/baseline.json" "$tmp/current.json" --json "$tmp/judged.json" >"$tmp/compare.out" 2>&1
[ -s "$tmp/judged.json" ] || { cat "$tmp/compare.out"; fail "compare wrote nothing"; exit 1; }
grep -q "geomean latency" "$tmp/compare.out" || fail "compare printed no geometric mean"
"$PERFGATE" report "$tmp/judged.json" --baseline "$tmp/baseline.json" --html "$tmp/site/report.html" ||
  fail "report failed"
grep -q "<details>" "$tmp/site/report.html" || fail "no folded notes in the verdict table"

# The wrapper writes the report's scroll width and its verdict rows' heights into its own DOM.
cat >"$tmp/site/measure.html" <<'HTML'
<!DOCTYPE html><html><body style="margin:0">
<iframe id="r" src="report.html" style="border:0;width:100vw;height:900px"></iframe>
<script>
document.getElementById("r").onload = function () {
  var d = this.contentDocument;
  var rows = Array.from(d.querySelectorAll("table.verdicts tr")).slice(1).map(function (tr) { return tr.getBoundingClientRect().height; });
  var out = document.createElement("pre");
  out.id = "measured";
  out.textContent = "viewport=" + d.documentElement.clientWidth + " scroll=" + d.documentElement.scrollWidth +
    " table=" + Math.ceil(d.querySelector("table.verdicts").getBoundingClientRect().right) +
    " rows=" + rows.length + " tallest=" + Math.max.apply(null, rows);
  document.body.appendChild(out);
};
</script></body></html>
HTML
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$tmp/site" >"$tmp/http.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q "Serving" "$tmp/http.log" 2>/dev/null && break; sleep 0.1; done
for width in 1366 1920; do
  loopback_browser --window-size="$width,1000" --virtual-time-budget=5000 --dump-dom \
    "http://127.0.0.1:$port/measure.html" >"$tmp/measure-$width.html" 2>/dev/null
  line=$(grep -o '<pre id="measured">[^<]*' "$tmp/measure-$width.html" | sed 's/.*>//')
  echo "$width px: $line"
  [ -n "$line" ] || { fail "no measurement at $width px"; continue; }
  read -r viewport scroll table rows tallest < <(sed -E 's/[a-z]+=//g' <<<"$line")
  [ "$scroll" -le "$viewport" ] || fail "at $width px the page is $scroll px wide (window $viewport): it scrolls"
  [ "$table" -le "$viewport" ] || fail "at $width px the verdict table ends at $table px (window $viewport)"
  [ "$rows" -ge 3 ] || fail "the verdict table has $rows rows"
  # One line of 13-14 px text with its padding is under 40 px; a wrapped row is taller.
  [ "${tallest%.*}" -lt 40 ] || fail "at $width px a verdict row is ${tallest} px tall: more than one line"
  loopback_browser --window-size="$width,1000" --screenshot="$tmp/report-$width.png" \
    "http://127.0.0.1:$port/report.html" >/dev/null 2>&1 || fail "no screenshot at $width px"
  check_screenshot "$tmp/report-$width.png" "$width" 1000
  [ -n "${PERFGATE_REPORT_SHOTS:-}" ] && cp "$tmp/report-$width.png" "$PERFGATE_REPORT_SHOTS/report-$width.png"
done
exit $FAILED
