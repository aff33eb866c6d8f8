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
#   STEP: propose | propose-if-new | ctest-aa N | aa N | aa1 N | slowed N | slowed1 N | aacopy1 N |
#         ab-aa N | ab-slowed N | bisect POSITION | bisect-cp POSITION COMMITS | slowed-by PCT N | history
# ctest-aa: each perf test judged with the history hist-aa1 (PERFGATE_HISTORY, as CI's perf jobs
# are), each run appended to it after it is judged.
# aa1: whole-suite A/A `run`s on GPU 0 alone, each appended to the history hist-aa1. With one GPU
# (GPUS=1) the history's two series run one after the other on GPU 0. BASELINES: a folder of
# approved baselines from an earlier call (the propose step saves them as OUTDIR/baselines).
# HISTORY: a history folder from an earlier call, copied to OUTDIR/hist-aa1; with it every check
# and run judges with that history (PERFGATE_HISTORY, as the CI perf jobs do) and each aa1 run is
# appended after it is judged, as a gated main-branch run is. propose-if-new: proposes (as
# `propose`) only where GPU 0 is not the device the BASELINES were measured on.
# A call that finds no warm machine may get another host's GPUs: with BASELINES from an earlier
# call, begin with propose-if-new, or every check is one on another device.
# slowed N: N pairs of checks of copy n=2^25, one on each GPU at once, by the build doing
# SLOWED_PCT% (default 1) more work.
# slowed1 / aacopy1: `check` of copy n=2^25 on GPU 0 by the build doing 1% more work / this build.
# slowed-by PCT N: the same by the build doing PCT% more work (slow/PCT/perfgate).
# ab-slowed / ab-aa: the same as A/B checks against this build (`check --base build/perfgate`).
# bisect POSITION: a scratch repository of 16 commits after a base, the one at POSITION switching
# to the build doing 1% more work; `perfgate bisect` over it, its build step copying the binary
# the commit names (the builds were made elsewhere and carried, as a CI's artifacts are);
# ALLOWED, PAIRS: its --allowed and --pairs. POSITION 0 plants nothing (a range with no slowdown).
# bisect-cp POSITION COMMITS: the same over COMMITS commits, found the way CI finds it: a history
# of 5 copy runs at the base (the normal build) and 5 at the tip (the slowed one), its change
# point, and `bisect --change-point ID --history DIR` with no --allowed or --pairs.
# Expects build/perfgate (and build/CTestTestfile.cmake, build/perfgate_perf_include.cmake for
# ctest-aa) configured at /work/main, slowed builds at slow/<pct>/perfgate built from
# /tmp/slow<pct>/src (tests/study/build_slowed.sh copy/vulkan <pct> /tmp/slow<pct>), and
# FIRST: the output of a first `run` on such a machine (the commands it printed); without it the
# propose step makes that run first.
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
if [ -n "${HISTORY:-}" ]; then
  mkdir -p "$out/hist-aa1" && cp -r "$HISTORY"/. "$out/hist-aa1/"
  export PERFGATE_HISTORY=$out/hist-aa1
fi
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

# A scratch repository of COMMITS commits after a base, the one at POSITION (0: none) switching to
# the build doing 1% more work; prints its path and saves the planted commit's sha.
planted_repo() {
  local position=$1 commits=$2 repo=/tmp/bisect-repo-$1 message
  rm -rf "$repo" "/tmp/bisect-work-$position" "/tmp/bisect-cp-work-$position" && mkdir -p "$repo"
  git -C "$repo" init -q && git -C "$repo" config user.email study@example.com && git -C "$repo" config user.name study
  echo build/perfgate > "$repo/binary.txt" && echo 0 > "$repo/commit.txt"
  git -C "$repo" add . && git -C "$repo" commit -qm "base"
  for i in $(seq 1 "$commits"); do
    echo "$i" > "$repo/commit.txt"
    message="commit $i"
    if [ "$i" = "$position" ]; then echo slow/1/perfgate > "$repo/binary.txt"; message="commit $i: copy does 1% more work"; fi
    git -C "$repo" commit -qam "$message"
    [ "$i" = "$position" ] && git -C "$repo" rev-parse HEAD > "$out/bisect-$position-planted.txt"
  done
  echo "$repo"
}

# N checks of copy n=2^25 on GPU 0 by BINARY, saved as NAME-<i>, with any further arguments.
copy_checks() {
  local binary=$1 name=$2 n=$3
  shift 3
  for i in $(seq 1 "$n"); do
    [ "$(left)" -gt 30 ] || break
    "$binary" check "$dram" --device 0 "$@" --json "$out/$name-$i.json" > "$out/$name-$i.txt" 2>&1
    echo "$name $i: exit $?" >> "$out/steps.txt"
  done
  log "$name done"
}

while [ $# -gt 0 ]; do
  step=$1
  shift
  case "$step" in
    propose)
      # Without FIRST, the first run is made here: the README's first command on this machine.
      if [ -n "${FIRST:-}" ]; then cp "$FIRST" "$out/first.txt"; else build/perfgate run --color never > "$out/first.txt" 2>&1; fi
      propose=$(grep -m1 'baseline propose' "$out/first.txt" | sed 's/^ *//')
      approve=$(grep -m1 'baseline approve' "$out/first.txt" | sed 's/^ *//; s/NAME/calibration-study/; s/TEXT/first-contact/')
      echo "printed: $propose" > "$out/propose.txt"
      t0=$(date +%s)
      eval "$propose" >> "$out/propose.txt" 2>&1
      echo "propose: $(($(date +%s) - t0)) s, exit $?" >> "$out/propose.txt"
      eval "$approve --yes" >> "$out/propose.txt" 2>&1
      build/perfgate baseline show --machine nvidia-h200 > "$out/show.txt" 2>&1
      cp candidate-*.yaml "$out/" 2>/dev/null
      cp -r baselines/nvidia-h200 "$out/baselines"
      log "propose done"
      ;;
    propose-if-new)
      build/perfgate run 'copy/vulkan/n=1048576,wg=256' --device 0 --color never --json "$out/uuid.json" > /dev/null 2>&1
      now=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cases"][0]["device_uuid"])' "$out/uuid.json" 2>/dev/null)
      then=$(grep -h -m1 -o 'device_uuid: [0-9a-f]*' baselines/nvidia-h200/copy.yaml 2>/dev/null | cut -d' ' -f2)
      echo "GPU 0: ${now:-unknown}; baselines: ${then:-none}" >> "$out/steps.txt"
      if [ -z "$now" ] || [ "$now" != "$then" ]; then set -- propose "$@"; fi
      log "device checked"
      ;;
    slowed1 | aacopy1 | slowed-by | ab-aa | ab-slowed)
      binary=build/perfgate name=$step
      case "$step" in
        slowed1 | ab-slowed) binary=slow/1/perfgate ;;
        slowed-by) binary=slow/$1/perfgate name=slowed$1; shift ;;
      esac
      base=()
      [[ "$step" = ab-* ]] && base=(--base build/perfgate)
      copy_checks "$binary" "$name" "$1" "${base[@]}"
      shift
      ;;
    bisect)
      position=$1
      shift
      repo=$(planted_repo "$position" 16)
      t0=$(date +%s)
      build/perfgate bisect "$dram" --device 0 --source "$repo" --good "$(git -C "$repo" rev-list --max-parents=0 HEAD)" \
        --bad HEAD --unrelated '' --configure '' --build "cp \"$root/\$(cat {source}/binary.txt)\" {build}/perfgate" \
        --binary '{build}/perfgate' ${ALLOWED:+--allowed "$ALLOWED"} ${PAIRS:+--pairs "$PAIRS"} \
        --work-dir "/tmp/bisect-work-$position" --json "$out/bisect-$position.json" > "$out/bisect-$position.txt" 2>&1
      log "bisect $position: exit $? in $(($(date +%s) - t0)) s"
      ;;
    bisect-cp)
      position=$1 commits=$2
      shift 2
      repo=$(planted_repo "$position" "$commits")
      hist="$out/hist-cp-$position"
      mkdir -p "$hist"
      t0=$(date +%s)
      for i in 1 2 3 4 5; do
        PERFGATE_COMMIT=$(git -C "$repo" rev-list --max-parents=0 HEAD) history_run build/perfgate 0 "$hist" "good-$i"
      done
      for i in 1 2 3 4 5; do
        PERFGATE_COMMIT=$(git -C "$repo" rev-parse HEAD) history_run slow/1/perfgate 0 "$hist" "bad-$i"
      done
      build/perfgate history "$dram" --history "$hist" --changes > "$out/bisect-cp-$position-history.txt" 2>&1
      cp_id=$(grep -o 'cp-[0-9a-f]\{12\}' "$out/bisect-cp-$position-history.txt" | head -1)
      log "bisect-cp $position: history of 10 runs in $(($(date +%s) - t0)) s, change point '${cp_id}'"
      t0=$(date +%s)
      build/perfgate bisect --change-point "$cp_id" --history "$hist" --device 0 --source "$repo" --unrelated '' \
        --configure '' --build "cp \"$root/\$(cat {source}/binary.txt)\" {build}/perfgate" --binary '{build}/perfgate' \
        --work-dir "/tmp/bisect-cp-work-$position" --json "$out/bisect-cp-$position.json" > "$out/bisect-cp-$position.txt" 2>&1
      log "bisect-cp $position: exit $? in $(($(date +%s) - t0)) s"
      ;;
    ctest-aa)
      n=$1
      shift
      sed -i '/^subdirs(/d' build/CTestTestfile.cmake
      mkdir -p "$out/hist-aa1"
      export PERFGATE_HISTORY=$out/hist-aa1
      build/perfgate list --resource-spec "$out/spec.json" 2> "$out/spec.txt"
      for i in $(seq 1 "$n"); do
        [ "$(left)" -gt 90 ] || break
        t0=$(date +%s)
        ctest --test-dir build -L perf -R /vulkan/ -j 2 --resource-spec-file "$out/spec.json" > "$out/ctest-$i.txt" 2>&1
        log "ctest A/A $i: exit $? in $(($(date +%s) - t0)) s"
        mkdir -p "$out/ctest-$i" && cp build/perfgate-results/*.json "$out/ctest-$i/" 2>/dev/null
        # Appended after it was judged, as a gated main-branch run is (ci/history.sh).
        for f in "$out/ctest-$i"/*.json; do
          build/perfgate report "$f" --history "$out/hist-aa1" --append-history > /dev/null 2>&1
        done
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
          "slow/${SLOWED_PCT:-1}/perfgate" check "$dram" --device $g --json "$out/slowed$g-$i.json" > "$out/slowed$g-$i.txt" 2>&1 &
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
