#!/usr/bin/env bash
# Runs a study command in one of the shared machine's conditions (a study, not a test):
#   quiet   nothing beside it
#   loop    a busy loop pinned to the last core for the whole command
#   build   this project configured and built from scratch in a loop beside it, no compiler
#           cache, as many jobs as cores (a neighbour's CI job)
# The neighbour starts before the command and is stopped when it ends; the load average is
# printed at both ends.
#
#   tests/study/in_condition.sh CONDITION COMMAND...
#   e.g. tests/study/in_condition.sh loop tests/study/too_busy.sh build/perfgate SLOW B OUT 20 900 --backend vulkan 'f16_matvec/*'
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 quiet|loop|build COMMAND..." >&2
  exit 2
fi
condition=$1
shift
root=${PERFGATE_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# The build neighbour copies this tree: never anything that is not perfgate's (a copy of this
# script elsewhere would otherwise take / for the tree).
if ! grep -qs 'project(perfgate' "$root/CMakeLists.txt"; then
  echo "$0: $root is not perfgate's source tree; run the script from its tests/study/ or set PERFGATE_SOURCE_DIR" >&2
  exit 2
fi
neighbour=""
case "$condition" in
  quiet) ;;
  loop)
    taskset -c "$(( $(nproc) - 1 ))" sh -c 'while :; do :; done' &
    neighbour=$!
    ;;
  build)
    scratch=$(mktemp -d)
    tar -C "$root" --exclude=./build --exclude=./.git --exclude=./.study --exclude=./.device -cf - . |
      tar -C "$scratch" -xf -
    (
      cd "$scratch" || exit 1
      while :; do
        rm -rf build
        env -u CMAKE_CXX_COMPILER_LAUNCHER -u CMAKE_C_COMPILER_LAUNCHER CCACHE_DISABLE=1 \
          cmake --preset ci -DPERFGATE_TESTS=OFF >/dev/null 2>&1
        CCACHE_DISABLE=1 cmake --build build -j "$(nproc)" >/dev/null 2>&1
      done
    ) &
    neighbour=$!
    ;;
  *)
    echo "$0: unknown condition '$condition' (quiet, loop or build)" >&2
    exit 2
    ;;
esac
stop() {
  [ -n "$neighbour" ] || return 0
  pkill -TERM -P "$neighbour" 2>/dev/null
  kill "$neighbour" 2>/dev/null
  wait "$neighbour" 2>/dev/null
  # The build's compilers are grandchildren: end whatever is still running from the scratch tree.
  [ -z "${scratch:-}" ] || { pkill -f "$scratch" 2>/dev/null; sleep 1; rm -rf "$scratch"; }
  neighbour=""
}
trap stop EXIT
trap 'stop; exit 143' INT TERM
echo "condition $condition: load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
"$@"
rc=$?
echo "condition $condition: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
exit $rc
