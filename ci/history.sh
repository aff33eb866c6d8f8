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
source "$(dirname "$0")/history_branch.bash"
open_history_branch

for results in "$@"; do
  [ -f "$results" ] && "$perfgate" report "$results" --history "$dir" --append-history >/dev/null
done

status=0
"$perfgate" history --history "$dir" --changes --gate --notify || status=$?
push_history_branch "history: runs of ${PERFGATE_COMMIT:-$(git rev-parse HEAD)}"
exit "$status"
