#!/usr/bin/env bash
# Detection study of a shared machine's periods (judge/judge_case.cpp, "one period"): a baseline
# proposed here (5 runs) and approved; A/A checks against it alone; then a history of this
# host's runs (HISTORY_RUNS, each a process of its own, appended with `report --append-history`
# as a gated main-branch run is); then checks with that history, alternating a build whose kernel
# does more work (SLOWED, same case ids) with this one. Each check is a process of its own; the
# last line of each `.txt` is its verdict line, `summary.txt` counts them.
#
#   tests/study/periods_study.sh NORMAL SLOWED OUTDIR PAIRS CASE...
#
# NORMAL, SLOWED: perfgate binaries (SLOWED by tests/study/build_slowed.sh). PAIRS: how many
# slowed and A/A checks with the history (each). AA_ONE: A/A checks without it (PAIRS). HISTORY_RUNS: 5.
# HISTORY_SPACING_S: seconds between the history's runs (0), so they span periods as a CI's do.
# BACKEND: for the proposal and the history's runs (vulkan for llvmpipe's cases).
set -uo pipefail
normal=$1 slowed=$2 out=$3 pairs=$4
shift 4
cases=("$@")
mkdir -p "$out/baselines" "$out/history"
opts=(--baselines "$out/baselines")
t0=$(date +%s)
"$normal" baseline propose --out "$out/candidate.yaml" "${opts[@]}" ${BACKEND:+--backend "$BACKEND"} "${cases[@]}" > "$out/propose.txt" 2>&1
echo "propose: exit $? in $(($(date +%s) - t0)) s" >> "$out/summary.txt"
"$normal" baseline approve "$out/candidate.yaml" --by study --reason "periods study" --yes \
  --baselines "$out/baselines" >> "$out/propose.txt" 2>&1

# check NAME BINARY [options]: one check process, its output and exit code kept.
check() {
  local name=$1 binary=$2
  shift 2
  "$binary" check "${cases[@]}" "${opts[@]}" --color never "$@" > "$out/$name.txt" 2>&1
  echo "$name: exit $?" >> "$out/exits.txt"
}
for i in $(seq 1 "${AA_ONE:-$pairs}"); do check "aa-one-period-$i" "$normal"; done
for i in $(seq 1 "${HISTORY_RUNS:-5}"); do
  "$normal" run "${cases[@]}" --baselines "$out/baselines" ${BACKEND:+--backend "$BACKEND"} --color never --json "$out/history-run-$i.json" \
    > /dev/null 2>&1
  "$normal" report "$out/history-run-$i.json" --history "$out/history" --append-history > /dev/null 2>&1
  [ "$i" -lt "${HISTORY_RUNS:-5}" ] && sleep "${HISTORY_SPACING_S:-0}"
done
for i in $(seq 1 "$pairs"); do
  check "slowed-history-$i" "$slowed" --history "$out/history"
  check "aa-history-$i" "$normal" --history "$out/history"
done
# Each case's verdict per check: the table's last column ("regressed +12.3%", "pass -0.4%", ...).
for kind in aa-one-period slowed-history aa-history; do
  for c in "${cases[@]}"; do
    verdicts=$(grep -h -F "$c " "$out"/$kind-*.txt | grep -o -E "(pass|improved|regressed|inconclusive) +[+-][0-9.]+%$" |
      awk '{print $1}' | sort | uniq -c | tr -s ' ' | paste -sd, -)
    echo "$kind $c:$verdicts" >> "$out/summary.txt"
  done
done
echo "done in $(($(date +%s) - t0)) s" >> "$out/summary.txt"
