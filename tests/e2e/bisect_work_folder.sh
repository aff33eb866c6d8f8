#!/usr/bin/env bash
# perfgate bisect's work folder and its children, on a scratch git repository of three commits
# built by shell templates (nothing compiled, nothing measured):
# - one bisect at a time in a work folder: a second, started while the first builds, exits 2
#   naming the lock and its holder, and touches nothing;
# - SIGTERM to perfgate alone (a cancelled CI job) ends the build script's whole process group:
#   the script's own child (a `sleep`) does not live on to write into the shared build folder;
# - the build command's environment holds no webhook secret (PERFGATE_WEBHOOK_URL/_SECRET), but
#   the rest of perfgate's environment;
# - a relative --work-dir is under the current folder, worktree included: nothing is added
#   inside the source checkout, and git registers no worktree there;
# - --change-point refusals before anything is built: a missing --history folder ("not a folder"),
#   a BISECTED.log cut short (named, with its line), a change point that is an improvement.
# Runs beside other tests: it measures nothing and times nothing tightly.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
command -v git >/dev/null || { echo "SKIP: no git"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export PERFGATE_CACHE_DIR="$tmp/cache"
case_id="copy/cpu/n=4096"

repo="$tmp/repo"
mkdir -p "$repo" && cd "$repo" || exit 1
git init -q -b main .
git config user.email t@example.com
git config user.name "work folder test"
for i in 1 2 3; do echo "int x = $i;" > kernel.cpp; git add -A; git commit -qm "commit $i"; done
good=$(git rev-parse HEAD~2)

# A build that says it started, then waits on a child of its own; the test ends it.
mark="$tmp/mark"
mkdir -p "$mark"
export MARK="$mark"
slow_build='echo $$ > "$MARK/script.pid"; env > "$MARK/env.txt"; sleep 60 & echo $! > "$MARK/sleep.pid"; wait; exit 1'
PERFGATE_WEBHOOK_URL="https://hooks.example/T000/B000/secret-path" PERFGATE_WEBHOOK_SECRET="whsec_not_for_builds" \
  "$PERFGATE" bisect "$case_id" --source "$repo" --good "$good" --bad HEAD --work-dir "$tmp/work" \
  --configure '' --build "$slow_build" > "$tmp/first.txt" 2>&1 &
first=$!
for _ in $(seq 1 600); do [ -s "$mark/sleep.pid" ] && break; sleep 0.1; done
[ -s "$mark/sleep.pid" ] || { cat "$tmp/first.txt"; echo "FAIL: the first bisect's build never started"; exit 1; }

# A second bisect of the same work folder, while the first builds.
out=$(timeout 60 "$PERFGATE" bisect "$case_id" --source "$repo" --good "$good" --bad HEAD --work-dir "$tmp/work" \
  --configure '' --build 'touch "$MARK/second-built"; exit 1' 2>&1)
rc=$?
if [ "$rc" != 2 ] || ! grep -q "bisect.lock: locked by another bisect of this work folder (pid $first)" <<<"$out"; then
  bad "a second bisect of a busy work folder exited $rc (want 2 naming the lock and pid $first): $out"
else
  echo "ok: $(grep -o 'locked by another bisect.*' <<<"$out")"
fi
[ ! -e "$mark/second-built" ] || bad "the second bisect built in the first one's work folder"

# The build's environment: perfgate's, without the webhook's secrets.
grep -q "^MARK=$mark$" "$mark/env.txt" || bad "the build lost the environment it should get"
if grep -q "PERFGATE_WEBHOOK_URL\|PERFGATE_WEBHOOK_SECRET\|secret-path\|whsec_not_for_builds" "$mark/env.txt"; then
  bad "the build command can read the webhook's secrets: $(grep WEBHOOK "$mark/env.txt")"
else
  echo "ok: the build's environment holds no webhook secret"
fi

# SIGTERM to perfgate alone: the script and its sleep end with it.
script=$(cat "$mark/script.pid") sleeper=$(cat "$mark/sleep.pid")
kill -TERM "$first"
wait "$first"
echo "ok: the first bisect ended by SIGTERM (exit $?)"
for _ in $(seq 1 100); do kill -0 "$sleeper" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$sleeper" 2>/dev/null; then
  bad "the build script's child (pid $sleeper) lives on after perfgate was ended: $(ps -o pid,ppid,pgid,cmd -p "$sleeper" | tail -1)"
  kill "$sleeper" 2>/dev/null
else
  echo "ok: the build's child ended with perfgate"
fi
! kill -0 "$script" 2>/dev/null || bad "the build script (pid $script) lives on"

# A relative --work-dir: under the current folder, the worktree too.
mkdir -p "$tmp/elsewhere" && cd "$tmp/elsewhere" || exit 1
out=$(timeout 120 "$PERFGATE" bisect "$case_id" --source "$repo" --good "$good" --bad HEAD --work-dir rel \
  --configure '' --build 'exit 1' 2>&1)
rc=$?
[ "$rc" = 2 ] || bad "a bisect whose good end does not build exited $rc (want 2): $out"
grep -q "good end.*does not build\|does not build" <<<"$out" || bad "no word of the failed build: $out"
[ -e "$tmp/elsewhere/rel/tree/kernel.cpp" ] || bad "no worktree under the relative work folder: $(find "$tmp/elsewhere" | head)"
[ ! -e "$repo/rel" ] || bad "a relative --work-dir put files inside the source checkout: $(find "$repo/rel" | head)"
if git -C "$repo" worktree list --porcelain | grep "^worktree " | grep -v "^worktree $repo$" | grep -qv "^worktree $tmp/"; then
  bad "a worktree registered outside the work folders: $(git -C "$repo" worktree list)"
fi
git -C "$repo" worktree list --porcelain | grep -q "^worktree $tmp/elsewhere/rel/tree$" ||
  bad "the worktree is not the relative work folder's: $(git -C "$repo" worktree list)"
echo "ok: relative --work-dir: $(git -C "$repo" worktree list | grep elsewhere)"
cd "$tmp" || exit 1

# --change-point refusals, each before anything is built.
out=$("$PERFGATE" bisect --change-point cp-0123456789ab --history "$tmp/no-such-history" --source "$repo" 2>&1)
rc=$?
{ [ "$rc" = 2 ] && grep -q "history $tmp/no-such-history is not a folder" <<<"$out"; } ||
  bad "a missing --history folder: exit $rc, $out"
machine=$("$PERFGATE" list --machine-id --backend cpu)
history="$tmp/history"
mkdir -p "$history"
python3 - "$history/$machine.jsonl" "$good" "$(git -C "$repo" rev-parse HEAD)" "$case_id" <<'PY'
import json, random, sys
path, before, after, case = sys.argv[1:5]
rng = random.Random(5)
with open(path, "w") as f:
    for run in range(16):  # twice as fast after run 8: an improvement
        level = 5e6 * (0.5 if run >= 8 else 1.0) * (1 + rng.gauss(0, 0.005))
        f.write(json.dumps({"run_id": f"run-{run:02d}", "started_at": f"2026-11-{run + 1:02d}T00:00:00Z",
                            "commit": before if run < 8 else after, "branch": "main", "case": case,
                            "verdict": "pass", "medians": {"latency_ns": level},
                            "spreads": {"latency_ns": level * 0.005}}) + "\n")
PY
cp_id=$("$PERFGATE" history --history "$history" --changes 2>&1 | grep -o 'cp-[0-9a-f]\{12\}' | head -1)
if [ -z "$cp_id" ]; then
  bad "no change point in the improvement history: $("$PERFGATE" history --history "$history" --changes 2>&1 | head -20)"
else
  out=$("$PERFGATE" bisect --change-point "$cp_id" --history "$history" --source "$repo" --work-dir "$tmp/cp-work" \
    --configure "" --build "exit 1" 2>&1)
  rc=$?
  { [ "$rc" = 2 ] && grep -q "change point $cp_id is an improvement (-" <<<"$out"; } ||
    bad "--change-point of an improvement: exit $rc, $out"
  [ ! -e "$tmp/cp-work" ] || bad "the improvement's bisect made its work folder"
fi
printf '{"id": "cp-0123456789ab", "commits": [' > "$history/BISECTED.log"
out=$("$PERFGATE" bisect --change-point "${cp_id:-cp-0123456789ab}" --history "$history" --source "$repo" \
  --work-dir "$tmp/cut-work" --configure "" --build "exit 1" 2>&1)
rc=$?
{ [ "$rc" = 2 ] && grep -q "BISECTED.log:1: the last log entry was cut short" <<<"$out"; } ||
  bad "a cut BISECTED.log: exit $rc, $out"
[ "$fail" = 0 ] && echo OK
exit $fail
