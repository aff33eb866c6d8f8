#!/usr/bin/env bash
# Two approvals at once serialize on the folder's lock: both land, the log has both lines, the
# file is valid YAML holding both cases. A third that cannot get the lock in time fails with
# exit 2 naming the lock, and changes nothing.
# Runs beside other tests: it judges no measurement; each approval holds the lock 1.5 s a step, far
# past the third's 0.2 s, and the third waits (up to 60 s) until one holds it, however slowly a
# neighbour's load lets them start.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"

fixture_candidate copy-65536 "$WORK/a.yaml" && fixture_candidate copy-131072 "$WORK/b.yaml" || exit 1

# Each holds the lock for about 1.5 s, so the two overlap.
export PERFGATE_TEST_APPROVE_DELAY_MS=1500
approve "$WORK/a.yaml" alice "case a" >"$WORK/a.out" 2>&1 &
pid_a=$!
approve "$WORK/b.yaml" bob "case b" >"$WORK/b.out" 2>&1 &
pid_b=$!
# While one of them holds the lock, a third gives up after 0.2 s.
for _ in $(seq 1200); do grep -q pid "$BASELINES/$MACHINE/.lock" 2>/dev/null && break; sleep 0.05; done
unset PERFGATE_TEST_APPROVE_DELAY_MS
expect 2 "\.lock: locked by another baseline update \(pid [0-9]+\)" -- approve "$WORK/a.yaml" carol "too late" \
  --lock-timeout 0.2
wait "$pid_a" || { cat "$WORK/a.out"; fail "approval a failed"; }
wait "$pid_b" || { cat "$WORK/b.out"; fail "approval b failed"; }

[ "$(log_lines)" -eq 2 ] || fail "want 2 log lines, have $(log_lines): $(cat "$BASELINES/$MACHINE/APPROVALS.log")"
grep -q '"by":"alice"' "$BASELINES/$MACHINE/APPROVALS.log" || fail "alice's approval not logged"
grep -q '"by":"bob"' "$BASELINES/$MACHINE/APPROVALS.log" || fail "bob's approval not logged"
grep -q '"by":"carol"' "$BASELINES/$MACHINE/APPROVALS.log" && fail "the timed-out approval was logged"
all_valid || fail "baselines do not parse"
grep -q "copy/cpu/n=65536" "$BASELINES/$MACHINE/copy.yaml" || fail "case a lost"
grep -q "copy/cpu/n=131072" "$BASELINES/$MACHINE/copy.yaml" || fail "case b lost"
exit $FAILED
