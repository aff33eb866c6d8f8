#!/usr/bin/env bash
# The history study on the H100 (a study on the device tool, not a test): BASE separate runs of
# the normal build, then SLOWED runs of a build whose copy moves more bytes (tests/study/slowdown.py,
# same case ids), each run a `perfgate run --no-judge` process whose results JSON is packed into
# $OUT/runs.tgz as it comes (the device tool brings back few files, so one archive), so a call
# that runs out of time keeps what it measured. The history is
# built and judged afterwards, on any machine, from those files:
#
#   python3 tests/study/slowdown.py --plus 75776 copy n 0.8 /tmp/slowh/src   # then build it here
#   # on the device, with both binaries and a thresholds folder in .study/hist:
#   . .device/env.sh && S=.study/hist bash .study/hist/history_h100.sh 30 10
#   # back here:
#   for f in runs/*.json; do build/perfgate report "$f" --history H --append-history; done
#   build/perfgate history --history H --changes; build/perfgate history --history H --gate
#
# Environment: S (folder holding perfgate, slowed and thresholds/), DEADLINE (seconds; no run
# starts after it, default 560), CASES (the selection, words split; default below).
set -uo pipefail
base=${1:-30} slowed=${2:-10}
S=${S:-.study/hist}
OUT=${OUT:-/tmp/hist-out}
DEADLINE=${DEADLINE:-560}
read -ra CASES <<<"${CASES:-copy/vulkan/* triad/vulkan/* reduce/vulkan/* fill/vulkan/* fma_peak/vulkan/* rmsnorm/vulkan/* softmax/vulkan/*}"
W=/tmp/hist-work
mkdir -p "$W/runs" "$OUT"
nvidia-smi --query-gpu=name,driver_version,uuid --format=csv,noheader | tee "$W/gpu.txt"
start=$(date +%s)
run_one() {  # run_one BINARY NAME
  if [ $(($(date +%s) - start)) -ge "$DEADLINE" ]; then echo "deadline reached before $2"; exit 3; fi
  PERFGATE_COMMIT="$2" "$1" run --backend vulkan "${CASES[@]}" --thresholds "$S/thresholds" \
    --cache-dir /tmp/hist-cache --no-judge --quiet --color never --json "$W/runs/$2.json" \
    >"$W/runs/$2.txt" 2>&1
  echo "$2 exit $? at $(($(date +%s) - start)) s"
  tar -C "$W" -czf "$OUT/runs.tgz" runs gpu.txt
}
for i in $(seq -w 1 "$base"); do run_one "$S/perfgate" "base-$i"; done
for i in $(seq -w 1 "$slowed"); do run_one "$S/slowed" "slow-$i"; done
echo "done in $(($(date +%s) - start)) s"
