#!/usr/bin/env bash
# History study: BASE_RUNS separate runs of a selection appended to a history, then, for each
# slowed build (tests/study/slowdown.py: copy does PCT% more work, case ids unchanged), RUNS
# more runs of it; then `perfgate history --changes` (table and JSON) and `--gate`. Each run is
# a separate `perfgate run` process; PERFGATE_COMMIT names its build, so a change point's
# commit range says which builds it lies between. Not a test.
#
#   tests/study/history_study.sh OUTDIR BASE_RUNS "PCT:RUNS PCT:RUNS..." CASE_GLOB...
#   e.g. tests/study/history_study.sh .study/history 30 "10:10" 'copy/cpu/*' 'triad/cpu/*'
#        (a staircase: "4:10 8:10 12:10 17:10", each PCT the total over the unchanged copy)
# Environment: PERFGATE_STUDY_THRESHOLDS (thresholds folder for the runs; default the
# repository's), PERFGATE_STUDY_BACKEND (default: perfgate's choice), PERFGATE_STUDY_BASE_FROM
# (an earlier study's OUTDIR: its base runs are appended instead of measuring new ones, so a
# staircase and a single step share one base), PERFGATE_STUDY_BUDGET_S (start no run after this
# many seconds: exit 3, and a second call goes on where this one stopped, since runs already in
# OUTDIR/runs are kept and appending a run twice keeps one copy), CMAKE_ARGS for the slowed builds.
set -euo pipefail
out=$1 base_runs=$2 slowed=$3
shift 3
root=$(cd "$(dirname "$0")/../.." && pwd)
perfgate="$root/build/perfgate"
thresholds=${PERFGATE_STUDY_THRESHOLDS:-$root/thresholds}
backend=()
[ -n "${PERFGATE_STUDY_BACKEND:-}" ] && backend=(--backend "$PERFGATE_STUDY_BACKEND")
mkdir -p "$out/runs"
out=$(cd "$out" && pwd)
history="$out/history"

# Builds first, so the runs are not measured beside a compiler.
for step in $slowed; do
  pct=${step%%:*}
  if [ ! -x "$out/slow-$pct/build/perfgate" ]; then
    python3 "$root/tests/study/slowdown.py" copy n "$pct" "$out/slow-$pct"
    # The same preset as build/perfgate: only copy's code may differ between the builds.
    (cd "$out/slow-$pct" && cmake --preset ci -DPERFGATE_TESTS=OFF ${CMAKE_ARGS:-} &&
      cmake --build build --target perfgate) >"$out/slow-$pct.build.log" 2>&1
  fi
done

start_s=$(date +%s)
one_run() {  # one_run BINARY NAME: one separate run, appended to the history
  local binary=$1 name=$2
  if [ ! -f "$out/runs/$name.json" ] && [ -n "${PERFGATE_STUDY_BUDGET_S:-}" ] &&
    [ $(($(date +%s) - start_s)) -ge "$PERFGATE_STUDY_BUDGET_S" ]; then
    echo "time budget spent before $name: call again to go on"
    exit 3
  fi
  [ -f "$out/runs/$name.json" ] || \
  PERFGATE_COMMIT="$name" "$binary" run "${backend[@]}" --thresholds "$thresholds" --cache-dir "$out/cache" \
    --no-judge --quiet --color never --json "$out/runs/$name.json" "${cases[@]}" >"$out/runs/$name.txt" 2>&1 || true
  [ -f "$out/runs/$name.json" ] || { echo "run $name wrote no results:"; cat "$out/runs/$name.txt"; exit 2; }
  "$perfgate" report "$out/runs/$name.json" --history "$history" --append-history >/dev/null 2>&1
  echo "$(date -u +%H:%M:%S) $name appended"
}
cases=("$@")
if [ -n "${PERFGATE_STUDY_BASE_FROM:-}" ]; then
  for f in $(ls "$PERFGATE_STUDY_BASE_FROM"/runs/base-*.json | head -n "$base_runs"); do
    "$perfgate" report "$f" --history "$history" --append-history >/dev/null 2>&1
  done
else
  for i in $(seq -w 1 "$base_runs"); do one_run "$perfgate" "base-$i"; done
fi
for step in $slowed; do
  pct=${step%%:*} runs=${step##*:}
  for i in $(seq -w 1 "$runs"); do one_run "$out/slow-$pct/build/perfgate" "slow$pct-$i"; done
done

"$perfgate" history --history "$history" --thresholds "$root/thresholds" --changes | tee "$out/changes.txt"
"$perfgate" history --history "$history" --thresholds "$root/thresholds" --changes --json >"$out/changes.json"
set +e
"$perfgate" history --history "$history" --thresholds "$root/thresholds" --gate 2>&1 | tee "$out/gate.txt"
echo "gate exit ${PIPESTATUS[0]}"
