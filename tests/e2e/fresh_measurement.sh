#!/usr/bin/env bash
# `perfgate measure CASE --json FILE` (hidden): the fresh process that confirms a regression.
# It writes exactly one case, measured and not judged, with its samples, also where it is told a
# check's decided-verdict rule (--verdict-allowance, --verdict-median); a case id this binary does
# not have, or a negative allowance, is an error naming it, and nothing is written.
# Runs beside other tests: it judges nothing; what it asserts of the samples (5 or more, each
# positive) and of the correctness check a neighbour's load cannot change.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"

"$PERFGATE" measure "copy/cpu/n=65536" --seed 7 --cache-dir "$tmp/cache" --json "$tmp/fresh.json"
python3 - "$tmp/fresh.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
cases = run["cases"]
assert len(cases) == 1, f"{len(cases)} cases written, expected 1"
c = cases[0]
assert c["id"] == "copy/cpu/n=65536", c["id"]
assert not c.get("judgements"), f"a fresh measurement is not judged: {c['judgements']}"
samples = c["metrics"]["latency_ns"]["samples"]
assert len(samples) >= 5 and all(s > 0 for s in samples), samples
assert "rel L2 error" in c["check"], c["check"]
print(f"one case, {len(samples)} latency samples, {c['check']}")
PY

# Told a check's decided-verdict rule (cli/fresh_measurement.h): the same one case, unjudged.
median=$(python3 -c 'import json, sys, statistics; print(statistics.median(json.load(open(sys.argv[1]))["cases"][0]["metrics"]["latency_ns"]["samples"]))' "$tmp/fresh.json")
"$PERFGATE" measure "copy/cpu/n=65536" --seed 7 --alone --verdict-allowance 20 --verdict-median "$median" \
  --cache-dir "$tmp/cache" --json "$tmp/decided.json"
python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cases"]; assert len(c) == 1 and not c[0].get("judgements"), c' \
  "$tmp/decided.json"
set +e
out=$("$PERFGATE" measure "copy/cpu/n=65536" --verdict-allowance -5 --json "$tmp/negative.json" 2>&1)
rc=$?
set -e
if [ "$rc" -ne 2 ] || ! grep -q -- "-5" <<<"$out" || [ -e "$tmp/negative.json" ]; then
  echo "$out"
  echo "FAIL: a negative --verdict-allowance exited $rc (expected 2 naming it, no file written)" >&2
  exit 1
fi

set +e
out=$("$PERFGATE" measure "nosuch/cpu/n=1" --json "$tmp/none.json" 2>&1)
rc=$?
set -e
echo "$out"
if [ "$rc" -ne 2 ] || ! grep -q "nosuch" <<<"$out" || [ -e "$tmp/none.json" ]; then
  echo "FAIL: an unknown case exited $rc (expected 2 naming it, no file written)" >&2
  exit 1
fi
echo "OK: measure wrote one unjudged case, also told a decided-verdict rule; a negative allowance and an unknown case are refused"
