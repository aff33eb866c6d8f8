#!/usr/bin/env bash
# Detection study on a host of two GPUs of one model, through the commands a first run prints:
# `baseline propose` as printed (it measures every GPU of the model at once, run_devices), then
# whole-suite A/A checks through `ctest -j 2 --resource-spec-file` and as two `run`s at once,
# checks of copy n=2^25 by a build doing 1% more work on each GPU, and histories of copy-only
# runs: a step (normal build, then one doing 0.75% more work) on GPU 0 and a staircase (0, 0.38,
# 0.75, 1.13, 1.5% more work, 8 runs each) on GPU 1, appended with `report --append-history`
# (the slowed builds' source hash made the normal one's, so the statistics find the steps).
# Each check and run is a process of its own; results land in OUTDIR as they come.
#
#   tests/study/multi_gpu_h200.sh OUTDIR SECONDS STEP...
#   STEP: propose | ctest-aa N | aa N | aa1 N | slowed N | history
# aa1: whole-suite A/A `run`s on GPU 0 alone, each appended to the history hist-aa1. With one GPU
# (GPUS=1) the history's two series run one after the other on GPU 0. BASELINES: a folder of
# approved baselines from an earlier call (the propose step saves them as OUTDIR/baselines).
# Expects build/perfgate (and build/CTestTestfile.cmake, build/perfgate_perf_include.cmake for
# ctest-aa) configured at /work/main, slowed builds at slow/<pct>/perfgate built from
# /tmp/slow<pct>/src (tests/study/build_slowed.sh copy/vulkan <pct> /tmp/slow<pct>), and
# FIRST: the output of a first `run` on such a machine (the commands it printed).
set -uo pipefail
out=$1 budget_s=$2
shift 2
start=$(date +%s)
left() { echo $((budget_s - ($(date +%s) - start))); }
mkdir -p "$out" /work
root=$PWD
ln -sfn "$root" /work/main
for d in slow/*/; do
  p=$(basename "$d")
  mkdir -p "/tmp/slow$p" && ln -sfn "$root" "/tmp/slow$p/src"
done
[ -x /usr/bin/cmake ] || ln -sf "$(command -v cmake)" /usr/bin/cmake
dram='copy/vulkan/n=33554432,wg=256'
gpus=${GPUS:-2}
if [ -n "${BASELINES:-}" ]; then rm -rf baselines/nvidia-h200 && cp -r "$BASELINES" baselines/nvidia-h200; fi
# TARBALL: where to pack OUTDIR after every step, so a call cut short keeps what it measured.
log() {
  echo "$(date +%T) $*" >> "$out/steps.txt"
  if [ -n "${TARBALL:-}" ]; then
    tar czf "$TARBALL.tmp" -C "$(dirname "$out")" "$(basename "$out")" && mv -f "$TARBALL.tmp" "$TARBALL"
  fi
}

# Runs a copy-only run of BINARY on DEVICE and appends it to HISTORY as the normal build's.
history_run() {
  local binary=$1 device=$2 history=$3 name=$4
  "$binary" run "$dram" --device "$device" --color never --json "$history/$name.json" > /dev/null 2>&1
  python3 - "$history/$name.json" <<'PY'
import json, sys
path = sys.argv[1]
run = json.load(open(path))
for case in run.get("cases", []):
    if case.get("source_hash"):
        case["source_hash"] = "study-one-source"
json.dump(run, open(path, "w"))
PY
  build/perfgate report "$history/$name.json" --history "$history" --append-history > /dev/null 2>&1
}

while [ $# -gt 0 ]; do
  step=$1
  shift
  case "$step" in
    propose)
      cp "$FIRST" "$out/first.txt"
      propose=$(grep -m1 'baseline propose' "$out/first.txt" | sed 's/^ *//')
      approve=$(grep -m1 'baseline approve' "$out/first.txt" | sed 's/^ *//; s/NAME/calibration-study/; s/TEXT/first-contact/')
      echo "printed: $propose" > "$out/propose.txt"
      t0=$(date +%s)
      eval "$propose" >> "$out/propose.txt" 2>&1
      echo "propose: $(($(date +%s) - t0)) s, exit $?" >> "$out/propose.txt"
      eval "$approve --yes" >> "$out/propose.txt" 2>&1
      build/perfgate baseline show --backend vulkan > "$out/show.txt" 2>&1
      cp candidate-*.yaml "$out/" 2>/dev/null
      cp -r baselines/nvidia-h200 "$out/baselines"
      log "propose done"
      ;;
    ctest-aa)
      n=$1
      shift
      sed -i '/^subdirs(/d' build/CTestTestfile.cmake
      build/perfgate list --resource-spec "$out/spec.json" 2> "$out/spec.txt"
      for i in $(seq 1 "$n"); do
        [ "$(left)" -gt 90 ] || break
        t0=$(date +%s)
        ctest --test-dir build -L perf -R /vulkan/ -j 2 --resource-spec-file "$out/spec.json" > "$out/ctest-$i.txt" 2>&1
        log "ctest A/A $i: exit $? in $(($(date +%s) - t0)) s"
        mkdir -p "$out/ctest-$i" && cp build/perfgate-results/*.json "$out/ctest-$i/" 2>/dev/null
      done
      ;;
    aa)
      n=$1
      shift
      mkdir -p "$out/hist-aa0" "$out/hist-aa1"
      for i in $(seq 1 "$n"); do
        [ "$(left)" -gt 80 ] || break
        t0=$(date +%s)
        for g in 0 1; do
          build/perfgate run --backend vulkan --device $g --color never --json "$out/aa$g-$i.json" > "$out/aa$g-$i.txt" 2>&1 &
        done
        wait
        for g in 0 1; do
          build/perfgate report "$out/aa$g-$i.json" --history "$out/hist-aa$g" --append-history > /dev/null 2>&1
        done
        log "A/A pair $i in $(($(date +%s) - t0)) s"
      done
      ;;
    aa1)
      n=$1
      shift
      mkdir -p "$out/hist-aa1"
      for i in $(seq 1 "$n"); do
        [ "$(left)" -gt 75 ] || break
        t0=$(date +%s)
        build/perfgate run --backend vulkan --device 0 --color never --json "$out/aa1-$i.json" > "$out/aa1-$i.txt" 2>&1
        rc=$?
        build/perfgate report "$out/aa1-$i.json" --history "$out/hist-aa1" --append-history > /dev/null 2>&1
        log "A/A $i: exit $rc in $(($(date +%s) - t0)) s"
      done
      ;;
    slowed)
      n=$1
      shift
      for i in $(seq 1 "$n"); do
        [ "$(left)" -gt 20 ] || break
        for g in 0 1; do
          slow/1/perfgate check "$dram" --device $g --json "$out/slowed$g-$i.json" > "$out/slowed$g-$i.txt" 2>&1 &
        done
        wait
        echo "slowed pair $i" >> "$out/steps.txt"
      done
      log "slowed pairs done"
      ;;
    history)
      mkdir -p "$out/hist-step" "$out/hist-stair"
      (
        for i in $(seq 1 37); do
          [ "$(left)" -gt 10 ] || break
          binary=build/perfgate
          [ "$i" -gt 25 ] && binary=slow/0.75/perfgate
          history_run "$binary" 0 "$out/hist-step" "run-$i"
        done
      ) &
      [ "$gpus" -gt 1 ] || wait
      (
        i=0
        for level in normal 0.38 0.75 1.13 1.5; do
          binary=build/perfgate
          [ "$level" = normal ] || binary=slow/$level/perfgate
          for _ in 1 2 3 4 5 6 7 8; do
            i=$((i + 1))
            [ "$(left)" -gt 10 ] || break
            history_run "$binary" $((gpus > 1 ? 1 : 0)) "$out/hist-stair" "run-$i"
          done
        done
      ) &
      wait
      for h in step stair; do
        build/perfgate history "$dram" --history "$out/hist-$h" --changes > "$out/history-$h.txt" 2>&1
        build/perfgate history "$dram" --history "$out/hist-$h" --gate >> "$out/history-$h.txt" 2>&1
        echo "gate exit $?" >> "$out/history-$h.txt"
      done
      log "history done"
      ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
log "done in $(($(date +%s) - start)) s"
