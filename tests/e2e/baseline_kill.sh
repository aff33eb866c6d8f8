#!/usr/bin/env bash
# SIGKILL to a real approving process, at moments spread over its window under the lock (before
# and between its atomic file writes): every baseline file is still valid YAML and holds either
# the old approval or the new one, the lock is free again, and a later approval succeeds.
source "$(dirname "$0")/../store/e2e_lib.bash"

# The old state: copy and triad each approved once. The new candidate changes both kernels, so
# a kill between its two writes leaves one file new and one old, each whole.
"$PERFGATE" baseline propose --runs 2 --quiet --out "$WORK/old.yaml" --baselines "$BASELINES" --backend cpu \
  --cache-dir "$WORK/cache" --kernel copy --axis n=65536 >"$WORK/old.log" 2>&1 ||
  { cat "$WORK/old.log"; fail "propose old copy"; exit 1; }
approve "$WORK/old.yaml" alice "old copy" >/dev/null || { fail "approve old copy"; exit 1; }
"$PERFGATE" baseline propose copy triad --runs 2 --quiet --out "$WORK/new.yaml" --baselines "$BASELINES" --backend cpu \
  --cache-dir "$WORK/cache" --axis n=65536 >"$WORK/new.log" 2>&1 ||
  { cat "$WORK/new.log"; fail "propose new"; exit 1; }
cp "$BASELINES/$MACHINE/copy.yaml" "$WORK/old-copy.yaml"
old_copy=$(sha256sum <"$WORK/old-copy.yaml")

delay_ms=400
for kill_after_ms in 50 250 450 650 850; do
  # The old state again (the test's own write, while no approval runs).
  cp "$WORK/old-copy.yaml" "$BASELINES/$MACHINE/copy.yaml"
  rm -f "$BASELINES/$MACHINE/triad.yaml"
  # The perfgate process itself (not a subshell), so the kill reaches it.
  PERFGATE_TEST_APPROVE_DELAY_MS=$delay_ms "$PERFGATE" baseline approve "$WORK/new.yaml" --by mallory \
    --reason killed --yes --baselines "$BASELINES" >/dev/null 2>&1 &
  pid=$!
  # Count from when the approval holds the lock (it writes its pid there).
  for _ in $(seq 500); do grep -q "pid $pid" "$BASELINES/$MACHINE/.lock" 2>/dev/null && break; sleep 0.01; done
  grep -q "pid $pid" "$BASELINES/$MACHINE/.lock" || fail "approval $pid never held the lock"
  sleep "$(awk "BEGIN { print $kill_after_ms / 1000 }")"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  all_valid || fail "after a kill at +${kill_after_ms} ms the baselines do not parse: $(cat "$WORK/show.out")"
  now_copy=$(sha256sum <"$BASELINES/$MACHINE/copy.yaml")
  if [ "$now_copy" = "$old_copy" ]; then
    echo "ok: kill at +${kill_after_ms} ms: copy.yaml is the old file"
  elif grep -q "by: mallory" "$BASELINES/$MACHINE/copy.yaml"; then
    echo "ok: kill at +${kill_after_ms} ms: copy.yaml is the new file"
  else
    fail "kill at +${kill_after_ms} ms: copy.yaml is neither old nor new"
  fi
  # copy.yaml is written before triad.yaml: a new triad.yaml means a new copy.yaml.
  if [ -f "$BASELINES/$MACHINE/triad.yaml" ]; then
    grep -q "by: mallory" "$BASELINES/$MACHINE/triad.yaml" || fail "kill at +${kill_after_ms} ms: triad.yaml is not the new file"
    [ "$now_copy" != "$old_copy" ] || fail "kill at +${kill_after_ms} ms: triad.yaml new but copy.yaml old"
  fi
done

# The lock died with its holder: a real approval goes through at once.
expect 0 "approved 2 cases" -- approve "$WORK/new.yaml" alice "after the kills" --lock-timeout 1
all_valid || fail "baselines do not parse after the final approval"
exit $FAILED
