#!/usr/bin/env bash
# Detection study for a history's noise at the newest run's kernel source (judge/history_noise.h,
# 6fa877c): CASES proposed and approved into a scratch folder (first contact), then RUNS checks
# of CASES, each judged with the history of the runs before it and then appended to it as
# ci/history.sh appends a gated run (report --append-history); run SLOW_AT is made by BUILD_2X
# (2x the work: another kernel source, which the runs after it do not share). Then, with that
# history, N checks by BUILD_X (X% more work) and N by this build (A/A), each a process of its
# own. HOST, where given, is the host the checks say they run on (PERFGATE_HOST_ID): another
# host of the class than the one that proposed, whose level its own runs in the history place.
# Results in OUTDIR (steps.txt says what each step gave; tests/study/level_counts.py counts).
# PROPOSE_ARGS: more options for the proposal (e.g. "--runs 10": a finer baseline).
# Every command is given this project's thresholds folder: a slowed build (build_slowed.sh)
# carried to another machine would look for its own source tree's.
#
#   tests/study/history_source.sh OUTDIR BACKEND CASES RUNS SLOW_AT N BUILD_2X BUILD_X [HOST]
set -uo pipefail
if [ $# -lt 8 ]; then
  echo "usage: $0 OUTDIR BACKEND CASES RUNS SLOW_AT N BUILD_2X BUILD_X [HOST]" >&2
  exit 2
fi
out=$1 backend=$2 cases=$3 runs=$4 slow_at=$5 n=$6 build2x=$7 buildx=$8 host=${9:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
b="$out/baselines" h="$out/hist" th="$PWD/thresholds"
log() { echo "$(date +%T) $*" | tee -a "$out/steps.txt"; }
with_host() { if [ -n "$host" ]; then PERFGATE_HOST_ID=$host "$@"; else "$@"; fi; }
t0=$(date +%s)
# shellcheck disable=SC2086
build/perfgate baseline propose "$cases" --backend "$backend" --baselines "$b" --thresholds "$th" ${PROPOSE_ARGS:-} --out "$out/candidate.yaml" > "$out/propose.txt" 2>&1
build/perfgate baseline approve "$out/candidate.yaml" --baselines "$b" --by study --reason first-contact --yes >> "$out/propose.txt" 2>&1
log "proposed and approved in $(($(date +%s) - t0)) s"
mkdir -p "$h"
for i in $(seq 1 "$runs"); do
  binary=build/perfgate
  [ "$i" = "$slow_at" ] && binary=$build2x
  with_host env PERFGATE_HISTORY="$h" "$binary" check "$cases" --backend "$backend" --baselines "$b" \
    --thresholds "$th" --json "$out/hist-$i.json" > "$out/hist-$i.txt" 2>&1
  rc=$?
  with_host build/perfgate report "$out/hist-$i.json" --history "$h" --append-history > /dev/null 2>&1
  log "history run $i ($binary): exit $rc: $(python3 "$here/level_counts.py" "$out/hist-$i.json")"
done
checks() {  # NAME BINARY
  local name=$1 binary=$2
  for i in $(seq 1 "$n"); do
    with_host env PERFGATE_HISTORY="$h" "$binary" check "$cases" --backend "$backend" --baselines "$b" \
      --thresholds "$th" --json "$out/$name-$i.json" > "$out/$name-$i.txt" 2>&1
  done
  log "$name: $(python3 "$here/level_counts.py" "$out/$name"-*.json)"
}
checks slowed "$buildx"
checks aa build/perfgate
log "allowed (latency, first slowed check): $(grep -o 'allowed [0-9.]*%[^)]*' "$out/slowed-1.txt" | head -2 | tr '\n' ' ')"
log done
