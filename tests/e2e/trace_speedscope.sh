#!/usr/bin/env bash
# `--trace`: a real run's timeline opens in speedscope (from the npm registry) in headless
# Chromium, with the queue, host and cases tracks and the dispatches drawn. Skips (77) where
# Chromium, python3 or speedscope cannot be had. PERFGATE_TRACE_SHOT=FILE keeps the screenshot
# (docs/trace-speedscope.png is one).
# Runs beside other tests: it asserts the timeline's form, measuring without judging (--no-judge).
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
source "$(dirname "$0")/../report/browser.bash"
FAILED=0
fail() { echo "FAIL: $*" >&2; FAILED=1; }
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/thresholds"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"
[ -x "$CHROMIUM" ] && command -v python3 >/dev/null || { echo "no chromium or python3"; exit 77; }
# speedscope's release build, installed once per build folder (the only network use).
SPEEDSCOPE="${PERFGATE_BUILD_DIR:-$tmp}/speedscope"
if [ ! -f "$SPEEDSCOPE/node_modules/speedscope/dist/release/index.html" ]; then
  command -v npm >/dev/null || { echo "no npm to install speedscope with"; exit 77; }
  npm install --prefix "$SPEEDSCOPE" --no-audit --no-fund speedscope >"$tmp/npm.log" 2>&1 ||
    { cat "$tmp/npm.log"; echo "speedscope could not be installed"; exit 77; }
fi

# A real run: a staged Vulkan plan where there is a Vulkan device, else the CPU; short budgets.
source "$(dirname "$0")/../measure/e2e_sampling.bash"
brief_sampling "$tmp/thresholds"
backend=cpu
"$PERFGATE" list --machine-id --backend vulkan >/dev/null 2>&1 && backend=vulkan
"$PERFGATE" run --backend "$backend" --kernel copy --kernel attention_layer --axis n=1048576 --no-judge --quiet \
  --thresholds "$tmp/thresholds" --cache-dir "$tmp/cache" --trace "$tmp/trace.json" >"$tmp/run.out" 2>&1 ||
  { cat "$tmp/run.out"; fail "the run failed"; exit 1; }
python3 - "$tmp/trace.json" <<'PY' || fail "the trace does not hold the run's dispatches"
import json, sys
trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
dispatches = [e for e in events if e.get("cat") == "dispatch"]
names = {e["name"] for e in dispatches}
assert any(n.startswith("copy/") for n in names) and any(n.startswith("attention_layer/") for n in names), names
assert {e["name"] for e in events if e.get("cat") == "stage"} >= {"qkv", "scores", "softmax", "output"} or \
    not any(e.get("cat") == "stage" for e in events)
print(f"{len(dispatches)} dispatches of {sorted(names)}")
PY

mkdir -p "$tmp/site" && cp -r "$SPEEDSCOPE/node_modules/speedscope/dist/release/." "$tmp/site/" &&
  cp "$tmp/trace.json" "$tmp/site/trace.json"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$tmp/site" >"$tmp/http.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q "Serving" "$tmp/http.log" 2>/dev/null && break; sleep 0.1; done
page="http://127.0.0.1:$port/index.html#profileURL=trace.json&title=perfgate-trace"
loopback_browser --virtual-time-budget=10000 --window-size=1366,768 --screenshot="$tmp/trace.png" "$page" \
  >"$tmp/shot.out" 2>&1 || { cat "$tmp/shot.out"; fail "chromium could not take the screenshot"; }
loopback_browser --virtual-time-budget=10000 --dump-dom "$page" >"$tmp/trace.dom.html" 2>"$tmp/dom.err" ||
  fail "chromium could not load speedscope"
grep -q '"GET /trace.json HTTP/1.1" 200' "$tmp/http.log" || fail "speedscope did not fetch the trace"
# The toolbar names the profile and its three tracks (queue, host, cases): the file was read.
grep -q "perfgate-trace" "$tmp/trace.dom.html" && grep -Eq '\(1/3\)' "$tmp/trace.dom.html" ||
  fail "speedscope did not open the trace with its three tracks"
# The flame area (below the toolbar and the ruler) holds the dispatches: many coloured pixels.
python3 - "$tmp/trace.png" <<'PY' || fail "no dispatches drawn"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, width, height, kind_bytes = 8, b"", 0, 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        kind_bytes = {2: 3, 6: 4}[colour]
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
assert (width, height) == (1366, 768), (width, height)
raw = zlib.decompress(idat)
stride = width * kind_bytes
rows, prev = [], bytearray(stride)
for y in range(height):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - kind_bytes] if x >= kind_bytes else 0
        b, c = prev[x], prev[x - kind_bytes] if x >= kind_bytes else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
coloured = 0
for y in range(140, height, 4):
    for x in range(0, width, 4):
        r, g, b = rows[y][x * kind_bytes:x * kind_bytes + 3]
        coloured += max(r, g, b) - min(r, g, b) > 30
print(f"{coloured} coloured sample points in the flame area")
assert coloured > 500, coloured
PY
[ -n "${PERFGATE_TRACE_SHOT:-}" ] && cp "$tmp/trace.png" "$PERFGATE_TRACE_SHOT"
exit $FAILED
