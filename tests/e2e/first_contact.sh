#!/usr/bin/env bash
# A machine with no baselines: a run and a check say so once, last, with the commands that start
# gating here; following those commands as printed (only NAME and TEXT filled in) makes the next
# run and check judge every case (pass, exit 0).
set -uo pipefail
: "${PERFGATE:?PERFGATE must name the perfgate binary}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}"
WORK="$PERFGATE_E2E_TMP"
rm -rf "$WORK" && mkdir -p "$WORK/baselines" "$WORK/thresholds"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"
MACHINE=$("$PERFGATE" list --machine-id --backend cpu) || { echo "no cpu machine id"; exit 77; }
# The shipped thresholds with a shorter sampling budget for the two small copy cases (at most 20
# samples: without that bound each measurement took its 5 s, the 1% precision out of reach).
cp "$PERFGATE_SOURCE_DIR"/thresholds/*.yaml "$WORK/thresholds/"
cat >"$WORK/thresholds/zz_first_contact.yaml" <<'YAML'
overrides:
  - match: {case: "copy/cpu/*"}
    sampling: {min_samples: 10, max_samples: 20, min_time_s: 0.1, timeout_s: 5, warmup_s: 0.05}
YAML
cd "$WORK" || exit 2  # the printed candidate path is relative to here
SELECT=('copy/cpu/*' --backend cpu --axis n=65536,262144 --baselines "$WORK/baselines"
  --thresholds "$WORK/thresholds" --cache-dir "$WORK/cache")
FAILED=0
fail() { echo "FAIL: $*" >&2; FAILED=1; }
count() { grep -c -- "$1" <<<"$2"; }

out=$("$PERFGATE" run "${SELECT[@]}" --quiet --color never 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 0 ] || fail "a run with no baselines exited $rc (want 0)"
[ "$(count "No baselines for $MACHINE yet: 2 cases measured, none judged." "$out")" -eq 1 ] ||
  fail "the run did not say once that $MACHINE has no baselines"
[ "$(count "baseline propose" "$out")" -eq 1 ] || fail "the run did not print one propose command"
# The commands are the last lines of the run's output.
[ "$(tail -1 <<<"$out")" = "  $PERFGATE check 'copy/cpu/*' --backend cpu --axis n=65536,262144 --thresholds $WORK/thresholds --cache-dir $WORK/cache --baselines $WORK/baselines --base BUILD" ] ||
  fail "the run's last line is not the A/B command: $(tail -1 <<<"$out")"

check_out=$("$PERFGATE" check "${SELECT[@]}" --json "$WORK/check.json" 2>&1)
rc=$?
[ "$rc" -eq 77 ] || fail "a check with no baselines exited $rc (want 77)"
# Nothing to judge: checked against its reference, then a short look (a few samples, no
# calibration reference, no cold samples), its figures printed and stored.
[ "$(count "a short look: 5 samples, figures only" "$check_out")" -eq 2 ] ||
  fail "the check did not take a short look of 5 samples at each case"
python3 - "$WORK/check.json" <<'PY' || fail "the short look's results are not 5 samples of checked figures"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
assert len(cases) == 2, len(cases)
for c in cases:
    assert "rel L2 error" in c["check"], c["check"]
    assert len(c["metrics"]["latency_ns"]["samples"]) == 5, c["metrics"]["latency_ns"]
    assert "relative_latency" not in c["metrics"] and "cold_latency_ns" not in c["metrics"], sorted(c["metrics"])
PY
[ "$(count "No baselines for $MACHINE yet" "$check_out")" -eq 1 ] || {
  echo "$check_out"
  fail "the check did not say once that $MACHINE has no baselines"
}
grep -q '<CTestMeasurement' <<<"$check_out" || fail "the check kept no figures for CDash"

propose=$(grep -E "^  .* baseline propose " <<<"$out" | sed 's/^  //')
approve=$(grep -E "^  .* baseline approve " <<<"$out" | sed 's/^  //')
[ -n "$propose" ] && [ -n "$approve" ] || { fail "no propose/approve commands printed"; exit 1; }
grep -q -- "--by NAME --reason TEXT$" <<<"$approve" || fail "approve does not end in --by NAME --reason TEXT"
approve=${approve/--by NAME --reason TEXT/--by e2e-user --reason \'first contact\'}
echo "+ $propose"
proposed=$(eval "$propose" 2>&1)
rc=$?
echo "$proposed"
# A machine too busy to propose is refused by design (judge/busy_runs.h): nothing to follow then.
if [ "$rc" -eq 2 ] && grep -q "the machine was busy" <<<"$proposed"; then
  echo "SKIP: the machine was too busy to propose a baseline; the commands could not be followed"
  [ "$FAILED" -eq 0 ] && exit 77
  exit 1
fi
[ "$rc" -eq 0 ] || fail "the printed propose command failed"
echo "+ $approve"
eval "$approve" || fail "the printed approve command failed"
[ -s "$WORK/baselines/$MACHINE/copy.yaml" ] || fail "no baseline written for $MACHINE"

after=$("$PERFGATE" run "${SELECT[@]}" --quiet --color never 2>&1)
rc=$?
echo "$after"
[ "$rc" -eq 0 ] || fail "the run after approval exited $rc (want 0)"
# Judged, each with its change. A proposal made in a busy moment that the busy rules let through
# (every dispatch, the reference's too, stretched to a scheduler tick: copy n=65536 at 12 ms) makes
# a quiet run after it read as improved; and load that comes after the proposal can leave a case
# too busy to judge (inconclusive, exit 0): neither is a failure of the commands followed here.
[ "$(grep -cE '^copy/cpu/n=[0-9]+ .* (pass|improved|inconclusive) [+-][0-9.]+%$' <<<"$after")" -eq 2 ] ||
  fail "the run after approval did not judge both cases with their change"
grep -q "No baselines\|no baseline" <<<"$after" && fail "the run after approval still asks for a baseline"
check_after=$("$PERFGATE" check "${SELECT[@]}" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || { echo "$check_after"; fail "the check after approval exited $rc (want 0)"; }
exit $FAILED
