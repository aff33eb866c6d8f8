#!/usr/bin/env bash
# A `baseline propose` killed alone (SIGKILL to its process, as timeout(1) or a cancelled CI step
# sends it, not to its process group) takes its measuring child with it: the child `perfgate run`
# is gone within a second, long before its run would have ended, and holds no device lock. A
# child whose parent is already gone when it starts ends at once.
# Runs beside other tests: it judges nothing, and its measurement is cut short by design.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"
# Running: neither gone nor a zombie waiting for whoever inherits it to reap it.
alive() { local state; state=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${state:0:1}" != Z ]; }

# One run of this case takes seconds: its float64 reference check alone, before any sample.
"$PERFGATE" baseline propose --runs 5 --quiet --out "$WORK/candidate.yaml" --baselines "$BASELINES" --backend cpu \
  --cache-dir "$WORK/cache" --kernel matmul --axis m=1024 --axis n=1024 --axis k=1024 >"$WORK/propose.log" 2>&1 &
parent=$!
child=""
for _ in $(seq 300); do
  child=$(pgrep -P "$parent" | head -1)
  [ -n "$child" ] && break
  sleep 0.02
done
if [ -z "$child" ]; then
  fail "propose $parent started no child within 6 s"; cat "$WORK/propose.log" >&2
else
  sleep 0.3  # the child is past its start-up and measuring
  alive "$child" || fail "the child $child ended on its own within 0.3 s: the case is too short to tell"
  kill -KILL "$parent"
  wait "$parent" 2>/dev/null
  gone=""
  for _ in $(seq 50); do
    alive "$child" || { gone=1; break; }
    sleep 0.02
  done
  if [ -n "$gone" ]; then
    echo "ok: the child $child ended with its killed parent"
  else
    fail "the child $child still runs 1 s after its parent was killed: $(ps -o pid,args= -p "$child")"
    kill -KILL "$child" 2>/dev/null
  fi
fi
[ ! -f "$WORK/candidate.yaml" ] || fail "a killed propose wrote a candidate"

# A child whose parent is gone before it starts: the variable names a process that is not its
# parent, so it ends at once instead of running its command.
PERFGATE_PARENT_PID=1 "$PERFGATE" list --machine-id --backend cpu >"$WORK/orphan.out" 2>&1
rc=$?
if [ "$rc" = 143 ] && [ ! -s "$WORK/orphan.out" ]; then
  echo "ok: an orphaned child ends at once (exit $rc)"
else
  fail "an orphaned child exited $rc, output: $(cat "$WORK/orphan.out")"
fi
exit $FAILED
