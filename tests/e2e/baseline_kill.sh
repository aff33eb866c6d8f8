#!/usr/bin/env bash
# SIGKILL to a real approving process, at moments spread over its window under the lock (before,
# between and after its journal, file and log writes): once the next command has run, the folder
# is the old one with no new log line or the new one with its log lines, never a mix; every file
# is valid YAML, the lock is free again, and a later approval succeeds.
# Runs beside other tests: it judges no measurement (its proposals' thresholds allow any spread),
# and each kill, wherever a neighbour's load lets it land in the approval's window, is checked
# old or new.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"

# The old state: copy and triad each approved once. The new candidate changes both kernels, so
# a kill between its two writes leaves one file new and one old, each whole.
fixture_candidate copy-65536 "$WORK/old.yaml" || { fail "propose old copy"; exit 1; }
approve "$WORK/old.yaml" alice "old copy" >/dev/null || { fail "approve old copy"; exit 1; }
fixture_candidate copy-triad "$WORK/new.yaml" || { fail "propose new"; exit 1; }
cp "$BASELINES/$MACHINE/copy.yaml" "$WORK/old-copy.yaml"
cp "$BASELINES/$MACHINE/APPROVALS.log" "$WORK/old-log"
old_copy=$(sha256sum <"$WORK/old-copy.yaml")
journal="$BASELINES/$MACHINE/.journal"

# old, new or mixed: the two kernel files and the approval log, as one state.
state() {
  local copy_new=neither triad_new=0 lines
  if [ "$(sha256sum <"$BASELINES/$MACHINE/copy.yaml")" = "$old_copy" ]; then
    copy_new=0
  elif grep -q "by: mallory" "$BASELINES/$MACHINE/copy.yaml"; then
    copy_new=1
  fi
  [ -f "$BASELINES/$MACHINE/triad.yaml" ] && grep -q "by: mallory" "$BASELINES/$MACHINE/triad.yaml" && triad_new=1
  lines=$(grep -c '"by":"mallory"' "$BASELINES/$MACHINE/APPROVALS.log")
  if [ $copy_new = 0 ] && [ $triad_new = 0 ] && [ "$lines" = 0 ] && [ ! -f "$BASELINES/$MACHINE/triad.yaml" ]; then
    echo old
  elif [ $copy_new = 1 ] && [ $triad_new = 1 ] && [ "$lines" = 2 ]; then
    echo new
  else
    echo "mixed (copy new: $copy_new, triad new: $triad_new, log lines: $lines)"
  fi
}

# The approval waits delay_ms before each step (journal, copy.yaml, triad.yaml, log, journal
# removed): kills every 50 ms from just after it takes the lock to past its end hit each step.
delay_ms=150
for kill_after_ms in $(seq 10 50 960); do
  # The old state again (the test's own write, while no approval runs).
  cp "$WORK/old-copy.yaml" "$BASELINES/$MACHINE/copy.yaml"
  cp "$WORK/old-log" "$BASELINES/$MACHINE/APPROVALS.log"
  rm -f "$BASELINES/$MACHINE/triad.yaml" "$journal"
  # The perfgate process itself (not a subshell), so the kill reaches it.
  PERFGATE_TEST_APPROVE_DELAY_MS=$delay_ms "$PERFGATE" baseline approve "$WORK/new.yaml" --by mallory \
    --reason killed --yes --baselines "$BASELINES" >/dev/null 2>&1 &
  pid=$!
  # Count from when the approval holds the lock (it writes its pid there).
  for _ in $(seq 3000); do grep -q "pid $pid" "$BASELINES/$MACHINE/.lock" 2>/dev/null && break; sleep 0.01; done
  grep -q "pid $pid" "$BASELINES/$MACHINE/.lock" || fail "approval $pid never held the lock"
  sleep "$(awk "BEGIN { print $kill_after_ms / 1000 }")"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # Right after the kill: a mixed folder only with the journal that completes it.
  raw=$(state)
  if [ -f "$journal" ]; then
    raw="$raw, with a journal"
  elif [ "$raw" != old ] && [ "$raw" != new ]; then
    fail "kill at +${kill_after_ms} ms: $raw and no journal"
  fi
  # The next reader completes an interrupted approval and says so.
  all_valid || fail "after a kill at +${kill_after_ms} ms the baselines do not parse: $(cat "$WORK/show.out")"
  [ ! -f "$journal" ] || fail "kill at +${kill_after_ms} ms: the journal is still there after baseline show"
  if [[ "$raw" == *journal* ]] && ! grep -q "completed a baseline update that was interrupted" "$WORK/show.out"; then
    fail "kill at +${kill_after_ms} ms: baseline show finished the journal without saying so"
  fi
  after=$(state)
  case "$after" in
    old | new) echo "ok: kill at +${kill_after_ms} ms: $raw -> $after" ;;
    *) fail "kill at +${kill_after_ms} ms: $raw -> $after" ;;
  esac
done

# The lock died with its holder: a real approval goes through at once.
expect 0 "approved 2 cases" -- approve "$WORK/new.yaml" alice "after the kills" --lock-timeout 1
all_valid || fail "baselines do not parse after the final approval"
exit $FAILED
