#!/usr/bin/env bash
# Detection study of `perfgate baseline merge`: does a baseline pooled from two periods of a
# shared machine hold A/A where a baseline of one period does not, and what does it still catch?
# Not a test.
#   1. propose the selection (5 runs, the defaults) and approve it into OUT/one;
#   2. check the selection every INTERVAL seconds for MINUTES against it (each a separate
#      process): OUT/phase1;
#   3. propose again, merge both candidates (OUT/merged.yaml) and approve that into OUT/pooled;
#   4. for MINUTES, check against OUT/one and OUT/pooled in turn: OUT/phase2-one, OUT/phase2-pooled;
#   5. SLOW_PERFGATE (a build whose kernel does more work, tests/study/slowdown.py) checked N_SLOW
#      times against each: OUT/slow-one, OUT/slow-pooled.
# Summaries: tests/study/count_verdicts.py OUT/phase1 OUT/phase2-one OUT/phase2-pooled ...
#
#   tests/study/periods_merge.sh PERFGATE SLOW_PERFGATE OUT MINUTES INTERVAL N_SLOW SELECTION...
set -uo pipefail
perfgate=$1 slow=$2 out=$3 minutes=$4 interval=$5 n_slow=$6
shift 6
root=$(cd "$(dirname "$0")/../.." && pwd)
common=(--thresholds "$root/thresholds" --cache-dir "$out/cache")
mkdir -p "$out"/{one,pooled,phase1,phase2-one,phase2-pooled,slow-one,slow-pooled}
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$out/log.txt"; }

check() {  # check BINARY BASELINES JSON
  "$1" check "${selection[@]}" "${common[@]}" --baselines "$2" --json "$3" --color never >"${3%.json}.txt" 2>&1
  echo "$? $(grep -oE '^[a-z0-9_]+/cpu/[^:]*: [a-z-]+' "${3%.json}.txt" | tr '\n' ' ')"
}
selection=("$@")

"$perfgate" baseline propose "${selection[@]}" "${common[@]}" --baselines "$out/one" --out "$out/first.yaml" \
  >"$out/first.txt" 2>&1 || { log "first proposal refused"; cat "$out/first.txt"; exit 1; }
"$perfgate" baseline approve "$out/first.yaml" --by "periods study" --reason "one period" --yes \
  --baselines "$out/one" >/dev/null
log "first proposal approved into $out/one"

end=$(( $(date +%s) + 60 * minutes )); i=0
while [ "$(date +%s)" -lt "$end" ]; do
  i=$((i + 1)); t=$(date +%s)
  log "phase 1 check $i: $(check "$perfgate" "$out/one" "$out/phase1/check-$i.json")"
  sleep $(( interval - ($(date +%s) - t) > 0 ? interval - ($(date +%s) - t) : 0 ))
done

"$perfgate" baseline propose "${selection[@]}" "${common[@]}" --baselines "$out/one" --out "$out/second.yaml" \
  >"$out/second.txt" 2>&1 || { log "second proposal refused"; cat "$out/second.txt"; exit 1; }
"$perfgate" baseline merge "$out/first.yaml" "$out/second.yaml" --out "$out/merged.yaml" \
  --thresholds "$root/thresholds" --baselines "$out/one" >"$out/merged.txt" 2>&1 ||
  { log "merge refused"; cat "$out/merged.txt"; exit 1; }
"$perfgate" baseline approve "$out/merged.yaml" --by "periods study" --reason "two periods pooled" --yes \
  --baselines "$out/pooled" >/dev/null
log "second proposal merged with the first, approved into $out/pooled"
"$perfgate" baseline show --baselines "$out/one" --thresholds "$root/thresholds" | tee -a "$out/log.txt"
"$perfgate" baseline show --baselines "$out/pooled" --thresholds "$root/thresholds" | tee -a "$out/log.txt"

end=$(( $(date +%s) + 60 * minutes )); i=0
while [ "$(date +%s)" -lt "$end" ]; do
  i=$((i + 1)); t=$(date +%s)
  log "phase 2 check $i against one:    $(check "$perfgate" "$out/one" "$out/phase2-one/check-$i.json")"
  log "phase 2 check $i against pooled: $(check "$perfgate" "$out/pooled" "$out/phase2-pooled/check-$i.json")"
  sleep $(( interval - ($(date +%s) - t) > 0 ? interval - ($(date +%s) - t) : 0 ))
done

for i in $(seq 1 "$n_slow"); do
  log "slowed check $i against one:    $(check "$slow" "$out/one" "$out/slow-one/check-$i.json")"
  log "slowed check $i against pooled: $(check "$slow" "$out/pooled" "$out/slow-pooled/check-$i.json")"
done
python3 "$root/tests/study/count_verdicts.py" "$out"/phase1 "$out"/phase2-one "$out"/phase2-pooled \
  "$out"/slow-one "$out"/slow-pooled | tee -a "$out/log.txt"
