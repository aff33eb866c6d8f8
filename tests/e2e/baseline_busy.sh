#!/usr/bin/env bash
# A proposal measured while the machine is busy never becomes a candidate that allows anything:
# every other run of the proposal has a busy neighbour beside it (busy loops this script starts
# when the run's process appears and stops when the next one does), so no two consecutive runs
# agree. propose measures more runs (at most twice --runs), then refuses, naming the case and
# saying the machine was busy; nothing is written.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"

# Raw time on one thread: a neighbour's busy loops take the kernel's time slices, many times
# over on a loaded machine too (an OpenMP team on a loaded machine waits for time slices at its
# barriers whether or not the neighbour is there).
mkdir -p "$WORK/thresholds"
cat >"$WORK/thresholds/raw.yaml" <<'YAML'
defaults:
  sampling: {min_samples: 10, max_samples: 40, min_time_s: 0.3, timeout_s: 3, calibrate: false, batch_min_time_ms: 10}
  metrics:
    latency_ns: {direction: lower, min_allowed_pct: 2}
YAML
export OMP_NUM_THREADS=1
case_id="copy/cpu/n=1048576"
opts=(--baselines "$BASELINES" --cache-dir "$WORK/cache" --thresholds "$WORK/thresholds" --backend cpu)
# Device peaks in the cache (seeded, or measured here) before the runs the neighbour disturbs.
"$PERFGATE" run "$case_id" "${opts[@]}" --no-judge --quiet >/dev/null 2>&1 || fail "a first run"

loops=()
start_loops() { for _ in 1 2 3 4 5 6 7 8; do (while :; do :; done) & loops+=($!); done; }
stop_loops() {
  [ ${#loops[@]} -eq 0 ] && return
  kill "${loops[@]}" 2>/dev/null
  wait "${loops[@]}" 2>/dev/null
  loops=()
}
trap stop_loops EXIT

"$PERFGATE" baseline propose --runs 2 --quiet --out "$WORK/busy.yaml" "${opts[@]}" "$case_id" \
  >"$WORK/propose.log" 2>&1 &
propose=$!
seen=" "
runs=0
while kill -0 "$propose" 2>/dev/null; do
  for child in $(pgrep -P "$propose"); do
    case "$seen" in *" $child "*) continue ;; esac
    seen="$seen$child "
    runs=$((runs + 1))
    if [ $((runs % 2)) -eq 1 ]; then start_loops; else stop_loops; fi
  done
  sleep 0.02
done
stop_loops
wait "$propose"
rc=$?
cat "$WORK/propose.log"
echo "runs seen: $runs"
[ "$rc" -eq 2 ] || fail "propose beside a busy neighbour exited $rc, expected 2"
grep -q "the machine was busy" "$WORK/propose.log" || fail "the refusal does not say the machine was busy"
# The case is named for its runs' disagreement, or for a run whose threads waited for cores (a
# neighbour already on the machine can slow every run alike).
grep -Eq "  $case_id: .*(would allow|waited for a core)" "$WORK/propose.log" || fail "the refusal does not name $case_id"
[ "$runs" -eq 4 ] || fail "propose measured $runs runs, expected 4 (twice --runs 2)"
[ ! -e "$WORK/busy.yaml" ] || fail "a proposal refused as busy wrote a candidate"
exit $FAILED
