#!/usr/bin/env bash
# ci/bisect.sh PERFGATE: after the main-branch `history` job found a new regression change point,
# finds the commit that caused it, on the machine class that measured it: for each open regression
# change point of this machine that no bisect has recorded (`perfgate history --unbisected`),
# `perfgate bisect --change-point ID --history DIR` builds the commits of its range in a worktree
# of this checkout (which needs the whole history: fetch-depth 0), measures each A/B against the
# good end, records the culprit in the branch's BISECTED.log (pushed, so the history table and the
# HTML report show it), writes bisect-<id>.json and posts the alert. Environment:
# PERFGATE_BACKEND (cpu or vulkan, this machine class's), PERFGATE_BISECT_MAX_BUILDS (default 12),
# PERFGATE_BISECT_CONFIGURE / _BUILD / _BINARY (bisect's --configure, --build, --binary; the
# defaults build a CMake project; give --binary a folder of prebuilt artifacts per {sha} and an
# empty _BUILD to measure a CI's own builds). Exit code: 0 every change point bisected to an
# answer, 1 one stopped undecided, 2 an error.
set -euo pipefail
perfgate="$1"
source "$(dirname "$0")/history_branch.bash"
open_history_branch
machine=$("$perfgate" list --machine-id --backend "${PERFGATE_BACKEND:-cpu}")
options=(--max-builds "${PERFGATE_BISECT_MAX_BUILDS:-12}" --notify)
[ -n "${PERFGATE_BISECT_CONFIGURE+set}" ] && options+=(--configure "$PERFGATE_BISECT_CONFIGURE")
[ -n "${PERFGATE_BISECT_BUILD+set}" ] && options+=(--build "$PERFGATE_BISECT_BUILD")
[ -n "${PERFGATE_BISECT_BINARY+set}" ] && options+=(--binary "$PERFGATE_BISECT_BINARY")

ids=$("$perfgate" history --history "$dir" --machine "$machine" --unbisected)  # an error stops here
status=0
for id in $ids; do
  code=0
  "$perfgate" bisect --change-point "$id" --history "$dir" --json "bisect-$id.json" "${options[@]}" || code=$?
  [ "$code" -gt "$status" ] && status=$code
done
push_history_branch "history: bisected on $machine at ${PERFGATE_COMMIT:-$(git rev-parse HEAD)}"
exit "$status"
