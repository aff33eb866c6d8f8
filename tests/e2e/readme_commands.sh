#!/usr/bin/env bash
# Every command the README shows outside "In another project" (e2e/readme_consumer runs those):
# the quick start's two commands must be the two that .ci/run runs, line for line; the block
# marked `<!-- readme_commands -->` runs as written, in a folder whose `build` is this build, on a
# baselines folder with nothing approved (so nothing is judged), and must exit 0 and write what it
# says it writes.
# Runs beside other tests: it measures two copy cases without judging them (no baselines).
set -euo pipefail
: "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/checkout/baselines"
ln -s "$PERFGATE_BUILD_DIR" "$tmp/checkout/build"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"

python3 - "$PERFGATE_SOURCE_DIR/README.md" "$PERFGATE_SOURCE_DIR/.ci/run" "$tmp/commands.sh" <<'PY'
import re, sys
readme, ci_run, out = sys.argv[1:4]
text = open(readme, encoding="utf-8").read()

def block(marker):
    found = re.findall(r"<!-- " + marker + r"[^>]*-->\n```sh\n(.*?)```", text, re.S)
    if len(found) != 1:
        sys.exit(f"README: want one sh block marked {marker}, found {len(found)}")
    return [re.sub(r"\s+#.*$", "", line).rstrip() for line in found[0].splitlines() if line.strip()]

quick = block("readme_quick_start")
ci = [line.strip() for line in open(ci_run, encoding="utf-8")
      if line.strip() and not line.startswith(("#", "set ", "cd "))]
if quick != ci:
    sys.exit(f"README quick start {quick} is not what .ci/run runs {ci}")
open(out, "w", encoding="utf-8").write("set -euxo pipefail\n" + "\n".join(block("readme_commands")) + "\n")
PY

export PERFGATE_BASELINES_DIR="$tmp/checkout/baselines" PERFGATE_CACHE_DIR="$tmp/cache"
(cd "$tmp/checkout" && bash "$tmp/commands.sh") > "$tmp/out.txt" 2>&1 ||
  { cat "$tmp/out.txt"; echo "FAIL: the README's commands failed" >&2; exit 1; }
for want in "copy/cpu/n=33554432" "No baselines for"; do
  grep -qF "$want" "$tmp/out.txt" || { cat "$tmp/out.txt"; echo "FAIL: no '$want' in the output" >&2; exit 1; }
done
for file in run.json run.trace.json run.md run.html; do
  [ -s "$tmp/checkout/$file" ] || { cat "$tmp/out.txt"; echo "FAIL: the README's commands wrote no $file" >&2; exit 1; }
done
echo OK
