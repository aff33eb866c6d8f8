# Shared by the report end-to-end tests: headless Chromium on a page, and a check that a
# screenshot is a drawn page. Sourced, not run (its name does not end in .sh).
# Needs $tmp (a scratch folder) and a fail function.
CHROMIUM=/usr/bin/chromium

# browser ARGS...: a fresh profile, nothing in the background, no way out to the network.
browser() { chromium_with_rules "MAP * ~NOTFOUND" "$@"; }

# loopback_browser ARGS...: the same, with a server on 127.0.0.1 (a test's own) let through.
loopback_browser() { chromium_with_rules "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" "$@"; }

chromium_with_rules() {
  local rules=$1 profile
  shift
  profile="$(mktemp -d "$tmp/profile.XXXXXX")"
  timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules="$rules" --user-data-dir="$profile" "$@"
}

# render PAGE NAME WIDTH HEIGHT: NAME.png (screenshot) and NAME.dom.html (the rendered DOM, with
# console logging on); fails on console errors or failed loads.
render() {
  local page=$1 name=$2 width=$3 height=$4
  browser --screenshot="$tmp/$name.png" --window-size="$width,$height" "$page" >"$tmp/$name.screenshot.out" 2>&1 ||
    { cat "$tmp/$name.screenshot.out"; fail "chromium could not take the screenshot of $page"; }
  browser --enable-logging=stderr --v=0 --dump-dom "$page" >"$tmp/$name.dom.html" 2>"$tmp/$name.console.err" ||
    { cat "$tmp/$name.console.err"; fail "chromium could not load $page"; }
  if grep -E "CONSOLE|Uncaught|Failed to load resource|ERR_" "$tmp/$name.console.err"; then
    fail "$page logged console errors (above)"
  fi
}

# check_screenshot PNG WIDTH HEIGHT: a PNG of that size with a drawn page in it.
check_screenshot() {
  python3 - "$@" <<'PY' || fail "the screenshot $1 is empty or blank"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
expected = (int(sys.argv[2]), int(sys.argv[3]))
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
assert len(data) > 20_000, f"only {len(data)} bytes: a blank page compresses to almost nothing"
pos, idat, width, height = 8, b"", 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height = struct.unpack(">II", body[:8])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
assert (width, height) == expected, (width, height)
# Filtered scanlines of one flat colour hold a handful of byte values; a drawn page, hundreds.
assert len(set(raw)) > 64, f"{len(set(raw))} distinct byte values"
print(f"screenshot {width}x{height}, {len(data)} bytes, {len(set(raw))} distinct byte values")
PY
}
