#!/usr/bin/env bash
# ci/history.sh PERFGATE RESULTS.json...: keeps every gated main-branch run in the git branch
# $PERFGATE_HISTORY_BRANCH (default perfgate-history) of this repository, one JSON Lines file per
# machine id, then gates on it: `perfgate history --changes --gate --notify`. Exit code: the
# gate's (0 pass, 1 a new regression change point or drift, 2 bad input or an alert the receiver
# refused, 3 the gate passes but an alert waits undelivered). An alert that could not be delivered
# is not written to ALERTED.log, so the next run of this script sends it again.
#
# Why a branch and not the CI cache (docs/history.md, "In CI"): a cache is evicted (GitHub
# drops caches unused for 7 days and trims past 10 GB; GitLab's is per runner unless shared), is
# not shared between a fleet's runners, and cannot be reviewed; a branch keeps every run, the
# history is diffable and reviewable like the baselines, and the appends of two pipelines merge
# line by line (`merge=union` for *.jsonl and the logs), so a push that lost a race is rebased
# and pushed again without losing either run. Needs git and a token that may push the branch.
set -euo pipefail
perfgate="$1"; shift
branch="${PERFGATE_HISTORY_BRANCH:-perfgate-history}"
dir="${PERFGATE_HISTORY_DIR:-perfgate-history}"

git config --global --add safe.directory "$PWD" 2>/dev/null || true
if git fetch --quiet origin "+refs/heads/$branch:refs/remotes/origin/$branch" 2>/dev/null; then
  git worktree add -B "$branch" "$dir" "origin/$branch"
else
  # The first run: an orphan branch holding only the history.
  git worktree add --detach "$dir" HEAD
  git -C "$dir" checkout --quiet --orphan "$branch"
  git -C "$dir" rm -rfq .
  printf '*.jsonl merge=union\n*.log merge=union\n' >"$dir/.gitattributes"
  printf '*.lock\n' >"$dir/.gitignore"
fi

for results in "$@"; do
  [ -f "$results" ] && "$perfgate" report "$results" --history "$dir" --append-history >/dev/null
done

status=0
"$perfgate" history --history "$dir" --changes --gate --notify || status=$?

git -C "$dir" add -A
if ! git -C "$dir" diff --cached --quiet; then
  git -C "$dir" -c user.name="perfgate" -c user.email="perfgate@users.noreply.invalid" \
    commit --quiet -m "history: runs of ${PERFGATE_COMMIT:-$(git rev-parse HEAD)}"
  for attempt in 1 2 3 4 5; do
    git -C "$dir" push --quiet origin "HEAD:refs/heads/$branch" && break
    [ "$attempt" = 5 ] && { echo "history: could not push $branch" >&2; exit 2; }
    sleep $((attempt * 2))
    git -C "$dir" fetch --quiet origin "+refs/heads/$branch:refs/remotes/origin/$branch"
    git -C "$dir" -c user.name="perfgate" -c user.email="perfgate@users.noreply.invalid" \
      rebase --quiet "origin/$branch"
  done
fi
exit "$status"
