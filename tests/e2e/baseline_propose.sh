#!/usr/bin/env bash
# propose measures separate runs into a candidate file and changes nothing under baselines/;
# a selection that cannot be measured is refused with nothing written.
# Runs beside other tests: it judges no measurement (its proposals' thresholds allow any spread).
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"

# An approved baseline to diff against, then a snapshot of the folder.
fixture_candidate copy-65536 "$WORK/first.yaml" && approve "$WORK/first.yaml" e2e "seed baseline" >/dev/null ||
  fail "seeding a baseline"
before=$(snapshot)
[ -n "$before" ] || fail "the seed approval wrote nothing"

expect 0 "candidate: $WORK/second.yaml" -- "$PERFGATE" baseline propose --runs 2 --quiet --out "$WORK/second.yaml" \
  --baselines "$BASELINES" "${SELECT[@]}" --thresholds "$PROPOSE_THRESHOLDS" --axis n=65536,131072
[ "$before" = "$(snapshot)" ] || fail "propose changed baselines/"
grep -q "^digest: sha256:" "$WORK/second.yaml" || fail "the candidate has no digest"
[ "$(grep -c -- '- \[' "$WORK/second.yaml")" -ge 4 ] || fail "expected one line per run and metric"
# The diff table names both cases, the old one with a change and the new one as new.
expect 0 "copy/cpu/n=65536 +latency_ns .*[0-9]%" -- "$PERFGATE" baseline diff "$WORK/second.yaml" --baselines "$BASELINES"
expect 0 "copy/cpu/n=131072 .* new" -- "$PERFGATE" baseline diff "$WORK/second.yaml" --baselines "$BASELINES"
expect 0 "^\| case \| metric \|" -- "$PERFGATE" baseline diff "$WORK/second.yaml" --markdown --baselines "$BASELINES"
expect 0 "digest ok" -- "$PERFGATE" baseline diff "$WORK/second.yaml" --baselines "$BASELINES"

# Nothing to measure (no such device): refused, no candidate written.
expect 2 "refusing to propose" -- "$PERFGATE" baseline propose --runs 2 --quiet --out "$WORK/none.yaml" \
  --baselines "$BASELINES" --kernel copy --backend vulkan --device no-such-device --axis n=65536
[ ! -e "$WORK/none.yaml" ] || fail "a refused proposal wrote a candidate"
# A candidate may not be written into the baselines folder.
expect 2 "inside the baselines folder" -- "$PERFGATE" baseline propose --runs 2 --quiet \
  --out "$BASELINES/$MACHINE/x.yaml" --baselines "$BASELINES" "${SELECT[@]}" --axis n=65536
expect 2 "runs" -- "$PERFGATE" baseline propose --runs 1 --out "$WORK/one.yaml" --baselines "$BASELINES"
[ "$before" = "$(snapshot)" ] || fail "a refused proposal changed baselines/"
exit $FAILED
