# Sourced by ci/history.sh and ci/bisect.sh: the git branch $PERFGATE_HISTORY_BRANCH (default
# perfgate-history) of this repository checked out in the worktree $PERFGATE_HISTORY_DIR (default
# perfgate-history), and what a job added to it committed and pushed (ci/history.sh says why a
# branch and not the CI cache). Needs git and a token that may push the branch.
branch="${PERFGATE_HISTORY_BRANCH:-perfgate-history}"
dir="${PERFGATE_HISTORY_DIR:-perfgate-history}"

# The branch in $dir; on the first run, an orphan branch holding only the history.
open_history_branch() {
  git config --global --add safe.directory "$PWD" 2>/dev/null || true
  if git fetch --quiet origin "+refs/heads/$branch:refs/remotes/origin/$branch" 2>/dev/null; then
    git worktree add -B "$branch" "$dir" "origin/$branch"
  else
    git worktree add --detach "$dir" HEAD
    git -C "$dir" checkout --quiet --orphan "$branch"
    git -C "$dir" rm -rfq .
    printf '*.jsonl merge=union\n*.log merge=union\n' >"$dir/.gitattributes"
    printf '*.lock\n' >"$dir/.gitignore"
  fi
}

# push_history_branch MESSAGE: commits what changed in $dir and pushes it; a push that lost a race
# is rebased (the files merge line by line) and pushed again. Exits 2 after five failed pushes.
push_history_branch() {
  git -C "$dir" add -A
  git -C "$dir" diff --cached --quiet && return 0
  git -C "$dir" -c user.name="perfgate" -c user.email="perfgate@users.noreply.invalid" commit --quiet -m "$1"
  local attempt
  for attempt in 1 2 3 4 5; do
    git -C "$dir" push --quiet origin "HEAD:refs/heads/$branch" && return 0
    [ "$attempt" = 5 ] && { echo "history: could not push $branch" >&2; exit 2; }
    sleep $((attempt * 2))
    git -C "$dir" fetch --quiet origin "+refs/heads/$branch:refs/remotes/origin/$branch"
    git -C "$dir" -c user.name="perfgate" -c user.email="perfgate@users.noreply.invalid" \
      rebase --quiet "origin/$branch"
  done
}
