#!/usr/bin/env bash
# A study, not a test (docs/performance.md, "copy's load-following rule on every llvmpipe case"):
# copy's llvmpipe override (min 5%, 1.5 x this check's spread, at most 60%, never below 4 x sigma)
# made to match every llvmpipe case in a scratch copy of thresholds/, then A/A checks of the default
# Vulkan suite against BASELINES (e.g. the quiet ones tests/study/aa_suite.sh approved), N quiet
# and N beside a busy loop on one core, each a separate `perfgate run`.
#
#   tests/study/llvmpipe_rule_aa.sh PERFGATE BASELINES OUTDIR [N=3]
set -euo pipefail
perfgate=$1 baselines=$2 out=$3 n=${4:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
cp -r "$root/thresholds" "$out/"
sed -i 's|  - match: {case: "copy/vulkan/\*", machine: "llvmpipe\*"}|  - match: {machine: "llvmpipe*"}|' \
  "$out/thresholds/default.yaml"
if grep -q 'case: "copy/vulkan/\*", machine: "llvmpipe' "$out/thresholds/default.yaml"; then
  echo "copy's llvmpipe override was not widened" >&2; exit 1
fi
common=(--backend vulkan --thresholds "$out/thresholds" --cache-dir "$out/cache" --baselines "$baselines" --color never)
for condition in quiet busy; do
  for i in $(seq 1 "$n"); do
    loop=""
    if [ "$condition" = busy ]; then (while :; do :; done) & loop=$!; fi
    set +e
    "$perfgate" run "${common[@]}" --json "$out/$condition-$i.json" > "$out/$condition-$i.txt" 2>&1
    rc=$?
    set -e
    [ -z "$loop" ] || kill "$loop"
    echo "$condition $i: exit $rc $(grep -o '[0-9]* cases on .*' "$out/$condition-$i.txt")"
    grep ' regressed' "$out/$condition-$i.txt" | cut -c1-220 || true
  done
done
