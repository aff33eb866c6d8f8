#!/usr/bin/env bash
# A/B mode end to end, with real builds and real ctest: a second build of this project whose
# copy kernel does four times the work (tests/study/build_slowed.sh copy/cpu 300, by
# e2e/ab_gate_setup; tests/e2e/ab_slowed.bash says why four) is gated against this build, measured at the same moment:
# - head equal to base passes (`PERFGATE_BASE=<this binary> perfgate check CASE`, exit 0);
# - the slowed head against this build regresses (exit 1), confirmed by a fresh pair of
#   processes, also through
#   `ctest -L perf -R '^CASE$'` in the slowed build with PERFGATE_BASE in the environment;
# - against a stored baseline of one proposal of this build (one period of this host) the slowed
#   build's 4x lies past how far a shared host's periods have been seen to move (50%) and the
#   widest allowance a proposal may have (100%): it
#   regresses, as against two proposals merged (two periods), confirmed by a fresh process (or,
#   on a machine loaded far past the baseline's runs, is too busy to judge: never a pass, and
#   never only named);
# - a base that predates A/B mode skips (77) saying so; a base path with no binary is an error.
# Skips (77) when there is no compiler to build the slowed copy with.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_BUILD_DIR:?}" "${PERFGATE_SOURCE_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"
case_id="copy/cpu/n=1048576"
opts=(--cache-dir "$tmp/cache")

expect() {  # expect CODE PATTERN LABEL -- command...
  local want=$1 pattern=$2 label=$3 out rc
  shift 4
  set +e
  out=$("$@" 2>&1)
  rc=$?
  set -e
  echo "$out"
  if [ "$rc" -ne "$want" ] || ! grep -q -- "$pattern" <<<"$out"; then
    echo "FAIL: $label: exit $rc (expected $want), output should match '$pattern'" >&2
    exit 1
  fi
}

# The slowed copy (tests/e2e/ab_slowed.bash): built by e2e/ab_gate_setup, brought up to date here.
source "$(dirname "$0")/ab_slowed.bash"
slowed_build

# A/A: the same binary on both sides.
expect 0 "A/B" "A/A" -- env PERFGATE_BASE="$PERFGATE" "$PERFGATE" check "$case_id" "${opts[@]}" --json "$tmp/aa.json"
grep -q '"ab"' "$tmp/aa.json" || { echo "FAIL: the results JSON has no ab object" >&2; exit 1; }
for key in '"base"' '"head"' '"rounds"' '"median_ratio"' '"interval"' '"p_value"'; do
  grep -q "$key" "$tmp/aa.json" || { echo "FAIL: the ab object lacks $key" >&2; exit 1; }
done

# Four times the work against this build (given as its build folder): regressed.
# The regression stands after a fresh pair of processes measured it again.
expect 1 "confirmed by 1 fresh process pair" "4x slower head" -- \
  "$slowed" check "$case_id" --base "$PERFGATE_BUILD_DIR" "${opts[@]}"

# The same through ctest in the slowed build, PERFGATE_BASE in the environment, no CMake change.
expect 8 "regressed" "ctest, 4x slower head" -- \
  env PERFGATE_BASE="$PERFGATE" ctest --test-dir "$slowed_dir/src/build" -L perf -R "^${case_id}\$" --output-on-failure
expect 0 "100% tests passed" "ctest, head equal to base" -- \
  env PERFGATE_BASE="$slowed" ctest --test-dir "$slowed_dir/src/build" -L perf -R "^${case_id}\$" --output-on-failure

# Stored-baseline mode with the same builds: a baseline approved from this build; the slowed
# build's check regresses, and the regression stands only after a process of its own (the slowed
# binary, measuring the case again) confirmed it. On the DRAM-sized point: the slowed copy
# doubles its working set, and at n=2^20 its 16 MiB beside the calibration reference's 8 MiB no
# longer stays in the L3 a VM shares, so the reference in the same process slows too and the
# calibrated ratio hides part of the slowdown (once on the 2-core Zen 3 boot: 2x in raw time,
# +35% relative, allowed 37.5%). Past the caches the reference does not feel the case.
stored_case="copy/cpu/n=33554432"
# A machine too busy to propose is refused by design (judge/busy_runs.h): this half then has no
# baseline to judge against, and the A/B halves above have still been checked.
# propose_stored CANDIDATE WHAT: a proposal of 3 runs; exits 0 saying so when the machine was busy.
propose_stored() {
  local rc=0 proposed
  proposed=$("$PERFGATE" baseline propose --runs 3 --out "$1" --baselines "$tmp/baselines" \
    "${opts[@]}" "$stored_case" 2>&1) || rc=$?
  if [ "$rc" -eq 2 ] && grep -q "the machine was busy" <<<"$proposed"; then
    echo "OK: A/A passed, 4x slower head regressed (directly and through ctest); $2 not proposed:" \
      "the machine was too busy"
    exit 0
  fi
  [ "$rc" -eq 0 ] || { echo "$proposed"; echo "FAIL: proposing $2 exited $rc" >&2; exit 1; }
}
propose_stored "$tmp/candidate.yaml" "the stored baseline"
# The slowed head checked against a stored baseline DIR: regressed and confirmed by a fresh
# process, or (where this check's threads wait for cores far more than the baseline's runs did,
# ctest beside a parallel build) too busy to judge, never pass nor named; a regression whose fresh
# process was too busy to bear it out stands, unconfirmed. Sets `stored` to what it was.
judge_slowed() {
  local dir=$1 label=$2 out rc
  set +e
  out=$("$slowed" check "$stored_case" --baselines "$dir" "${opts[@]}" 2>&1)
  rc=$?
  set -e
  echo "$out"
  if [ "$rc" -eq 1 ] && grep -q "confirmed by 1 fresh process" <<<"$out"; then
    stored="regressed"
  elif [ "$rc" -eq 1 ] && grep -q "unconfirmed (a fresh process was too busy to judge" <<<"$out"; then
    stored="regressed, its fresh process too busy to bear it out (the machine was loaded)"
  elif [ "$rc" -eq 0 ] && grep -q "^${stored_case}: inconclusive" <<<"$out" && grep -q "too busy to judge" <<<"$out" &&
    ! grep -q "not judged within" <<<"$out"; then
    stored="too busy to judge (the machine was loaded)"
  else
    echo "FAIL: $label, 4x slower head: exit $rc (expected 1, confirmed by 1 fresh process, or too busy to judge)" >&2
    exit 1
  fi
}
# One proposal is one period of this host: a change past the case's allowance is named, not failed,
# only within how far a shared host's level has been seen to move between periods (50%,
# judge/device_level.h); a 4x slowdown lies past that, whatever the proposal allowed, and fails
# from the first approved baseline.
"$PERFGATE" baseline approve "$tmp/candidate.yaml" --by "e2e" --reason "one period" --yes \
  --baselines "$tmp/one-period" > /dev/null
judge_slowed "$tmp/one-period" "against one period's baseline"
one_period=$stored
propose_stored "$tmp/candidate2.yaml" "the second period"
"$PERFGATE" baseline merge "$tmp/candidate.yaml" "$tmp/candidate2.yaml" --out "$tmp/periods.yaml" \
  --baselines "$tmp/baselines" > /dev/null
"$PERFGATE" baseline approve "$tmp/periods.yaml" --by "e2e" --reason "two periods" --yes \
  --baselines "$tmp/baselines" > /dev/null
judge_slowed "$tmp/baselines" "stored baseline of two periods"

# A base that cannot serve the case skips, saying why; a base path without a binary is an error.
expect 77 "predates A/B" "base without A/B mode" -- "$PERFGATE" check "$case_id" --base /bin/true "${opts[@]}"
expect 2 "no perfgate executable" "missing base" -- "$PERFGATE" check "$case_id" --base "$tmp/nowhere" "${opts[@]}"
echo "OK: A/A passed, 4x slower head regressed (directly and through ctest); against a stored baseline of one period: $one_period; of two: $stored"
