#!/usr/bin/env bash
# merge pools two real proposals of the same cases into one candidate with every run, which
# diff and approve take like a proposed one; what is not one machine's same code is refused,
# with nothing written. (Whether a pooled baseline judges better is a study, docs/performance.md.)
# Runs beside other tests: it judges no measurement; its proposals' thresholds allow any spread.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"

fixture_candidate copy-both "$WORK/morning.yaml" && fixture_candidate copy-both-2 "$WORK/evening.yaml" || fail "proposing"
before=$(snapshot)
expect 0 "candidate: $WORK/day.yaml \(4 runs from 2 candidates\)" -- "$PERFGATE" baseline merge \
  "$WORK/morning.yaml" "$WORK/evening.yaml" --out "$WORK/day.yaml" --baselines "$BASELINES" \
  --thresholds "$PROPOSE_THRESHOLDS"
[ "$before" = "$(snapshot)" ] || fail "merge changed baselines/"
# Every run of both proposals (a line per run and metric), every sample as it was measured.
runs() { grep -c -- '- \[' "$1"; }
[ "$(runs "$WORK/day.yaml")" -eq "$(($(runs "$WORK/morning.yaml") + $(runs "$WORK/evening.yaml")))" ] ||
  fail "the merged candidate does not hold every run of both"
first_run=$(grep -m1 -- '- \[' "$WORK/morning.yaml")
grep -qF -- "$first_run" "$WORK/day.yaml" || fail "a run's samples changed in the merge"
expect 0 "digest ok" -- "$PERFGATE" baseline diff "$WORK/day.yaml" --baselines "$BASELINES"
approve "$WORK/day.yaml" e2e "two periods pooled" >/dev/null || fail "approving the merged candidate"
all_valid || fail "a baseline file does not parse after approving a merged candidate"
# Two proposals are two periods: a check on this host judges past the runs' allowance, where one
# proposal's baseline names such a change (judge/judge_case.cpp).
grep -q "periods: 2" "$WORK/day.yaml" || fail "the merged candidate does not count its two periods"
grep -q "periods: 2" "$BASELINES/$MACHINE/copy.yaml" || fail "the approved baseline does not keep its two periods"
expect 0 "copy/cpu/n=65536 +4 x [0-9]+ .* two periods pooled" -- "$PERFGATE" baseline show copy \
  --baselines "$BASELINES" --thresholds "$PROPOSE_THRESHOLDS"
after=$(snapshot)

# Refused, nothing written: other cases, an edited candidate, one file, --out inside baselines/.
fixture_candidate copy-65536 "$WORK/other.yaml" || fail "proposing"
expect 2 "they hold 2 and 1 cases" -- "$PERFGATE" baseline merge "$WORK/morning.yaml" "$WORK/other.yaml" \
  --out "$WORK/no.yaml" --baselines "$BASELINES"
sed -E '0,/- \[[0-9]/s/- \[([0-9])/- [9\1/' "$WORK/evening.yaml" >"$WORK/edited.yaml"
expect 2 "digest" -- "$PERFGATE" baseline merge "$WORK/morning.yaml" "$WORK/edited.yaml" --out "$WORK/no.yaml" \
  --baselines "$BASELINES"
expect 2 "files" -- "$PERFGATE" baseline merge "$WORK/morning.yaml" --out "$WORK/no.yaml" --baselines "$BASELINES"
# One candidate twice, or beside a merge holding it: its runs would count twice (once accepted,
# "4 runs from 2 candidates" of 2 runs).
expect 2 "is in both" -- "$PERFGATE" baseline merge "$WORK/morning.yaml" "$WORK/morning.yaml" --out "$WORK/no.yaml" \
  --baselines "$BASELINES"
expect 2 "is in both" -- "$PERFGATE" baseline merge "$WORK/day.yaml" "$WORK/evening.yaml" --out "$WORK/no.yaml" \
  --baselines "$BASELINES"
expect 2 "inside the baselines folder" -- "$PERFGATE" baseline merge "$WORK/morning.yaml" "$WORK/evening.yaml" \
  --out "$BASELINES/$MACHINE/x.yaml" --baselines "$BASELINES"
# Pooled runs that would allow more than propose_max_allowed_pct are refused as propose refuses
# a busy machine's runs. Here any spread at all is too much: the ceiling the noise must pass is
# 0.0001% (the shipped thresholds set no floor under it).
mkdir -p "$WORK/strict"
sed -E -e 's/^( +propose_max_allowed_pct:) [0-9.]+/\1 0.0001/' \
  "$PERFGATE_SOURCE_DIR/thresholds/default.yaml" >"$WORK/strict/default.yaml"
grep -q '^ *propose_max_allowed_pct: 0.0001' "$WORK/strict/default.yaml" ||
  fail "the strict thresholds did not lower propose_max_allowed_pct (thresholds/default.yaml changed?)"
expect 2 "refusing to merge: pooled, these cases' runs disagree as on a busy machine" -- "$PERFGATE" baseline \
  merge "$WORK/morning.yaml" "$WORK/evening.yaml" --out "$WORK/no.yaml" --baselines "$BASELINES" \
  --thresholds "$WORK/strict"
[ ! -e "$WORK/no.yaml" ] || fail "a refused merge wrote a candidate"
[ "$after" = "$(snapshot)" ] || fail "a refused merge changed baselines/"
exit $FAILED
