#!/usr/bin/env bash
# approve refuses a missing --by, an edited candidate, a foreign machine's candidate and a stale
# one, changing nothing; a good approval writes the kernel file and the log with the name and
# reason; show lists it; drop retires it, logged the same way.
# Runs beside other tests: it judges no measurement (its proposals' thresholds allow any spread, its
# check may give any verdict but no-baseline), and a neighbour's load only makes its candidate older.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"

fixture_candidate copy-65536 "$WORK/c.yaml" || exit 1
before=$(snapshot)

expect 2 "by" -- "$PERFGATE" baseline approve "$WORK/c.yaml" --reason "no name" --yes --baselines "$BASELINES"
expect 2 "approver is required" -- "$PERFGATE" baseline approve "$WORK/c.yaml" --by " " --reason x --yes \
  --baselines "$BASELINES"
expect 2 "reason" -- "$PERFGATE" baseline approve "$WORK/c.yaml" --by alice --yes --baselines "$BASELINES"

# An edited sample: the digest no longer matches.
sed -E '0,/- \[[0-9]/s/- \[([0-9])/- [1\1/' "$WORK/c.yaml" >"$WORK/tampered.yaml"
cmp -s "$WORK/c.yaml" "$WORK/tampered.yaml" && fail "the tampering edit changed nothing"
expect 2 "tampered.yaml: digest does not match" -- approve "$WORK/tampered.yaml" mallory "faster now"
expect 2 "digest does not match|DIGEST MISMATCH" -- "$PERFGATE" baseline diff "$WORK/tampered.yaml" --baselines "$BASELINES"
# Cut short: an error naming the file.
head -c 300 "$WORK/c.yaml" >"$WORK/truncated.yaml"
expect 2 "truncated.yaml" -- approve "$WORK/truncated.yaml" alice "cut"
# Measured elsewhere: refused unless the mismatch is accepted with a reason.
expect 2 "measured on $MACHINE, but this machine is other-machine" -- approve "$WORK/c.yaml" alice "x" \
  --machine-id other-machine
# Stale: older than --max-age (in days; 1e-5 days is under a second).
sleep 1.2
expect 2 "older than --max-age" -- approve "$WORK/c.yaml" alice "late" --max-age 0.00001
[ "$before" = "$(snapshot)" ] || fail "a refused approval changed baselines/"

# A good approval: the file, the approval fields and one log line.
expect 0 "approved 1 cases for $MACHINE by alice" -- approve "$WORK/c.yaml" alice "first copy baseline, 2 runs"
file="$BASELINES/$MACHINE/copy.yaml"
[ -f "$file" ] || fail "no $file"
grep -q "by: alice" "$file" || fail "approver missing from $file"
grep -q "reason: first copy baseline, 2 runs" "$file" || fail "reason missing from $file"
[ "$(log_lines)" -eq 1 ] || fail "want 1 log line, have $(log_lines)"
grep -q '"action":"approve","case":"copy/cpu/n=65536","by":"alice","reason":"first copy baseline, 2 runs"' \
  "$BASELINES/$MACHINE/APPROVALS.log" || fail "log line: $(cat "$BASELINES/$MACHINE/APPROVALS.log")"
all_valid || fail "baselines do not parse after the approval"
expect 0 "copy/cpu/n=65536 .* alice .* first copy baseline" -- "$PERFGATE" baseline show --baselines "$BASELINES"
expect 0 "^\| $MACHINE \| copy/cpu/n=65536 \|" -- "$PERFGATE" baseline show copy --markdown --baselines "$BASELINES"
# The gate finds it (whatever its verdict on this busy machine, it is not "no baseline").
expect 0 "copy/cpu/n=65536: (pass|improved|inconclusive|regressed)" -- bash -c \
  '"$0" check copy/cpu/n=65536 --baselines "$1" --cache-dir "$2" --require-baseline; true' \
  "$PERFGATE" "$BASELINES" "$WORK/cache"

# A second case, accepted from "another machine" with a reason, lands in the candidate's folder.
fixture_candidate copy-131072 "$WORK/d.yaml" || exit 1
expect 0 "approved 1 cases" -- approve "$WORK/d.yaml" bob "moved runner" --machine-id other-machine \
  --machine-mismatch-ok "same hardware, renamed host"
grep -q "copy/cpu/n=131072" "$file" || fail "the accepted case is not in $file"
grep -q "copy/cpu/n=65536" "$file" || fail "the first case was lost by the merge"
grep -q 'same hardware, renamed host' "$BASELINES/$MACHINE/APPROVALS.log" || fail "mismatch reason not logged"

# drop: refused without --by, then logged.
expect 2 "by" -- "$PERFGATE" baseline drop "copy/cpu/n=131072" --reason retired --baselines "$BASELINES"
expect 2 "no approved baseline matches" -- "$PERFGATE" baseline drop "nosuch/*" --by carol --reason x \
  --yes --baselines "$BASELINES"
expect 0 "dropped 1 cases by carol" -- "$PERFGATE" baseline drop "copy/cpu/n=131072" --by carol \
  --reason "size retired" --yes --baselines "$BASELINES"
grep -q "copy/cpu/n=131072" "$file" && fail "dropped case still in $file"
grep -q '"action":"drop","case":"copy/cpu/n=131072","by":"carol","reason":"size retired"' \
  "$BASELINES/$MACHINE/APPROVALS.log" || fail "drop not logged"
[ "$(log_lines)" -eq 3 ] || fail "want 3 log lines, have $(log_lines)"
all_valid || fail "baselines do not parse after the drop"
exit $FAILED
