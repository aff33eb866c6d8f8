#!/usr/bin/env bash
# The gate's promise on a noisy 2-core machine: a baseline just proposed and approved here
# passes A/A three times in a row under the repository's thresholds, and the same kernels made
# ~2x slower (run on half of the OpenMP threads they were baselined with) fail with `regressed`
# under a 25% threshold on raw time, each confirmed by a fresh process. (The repository's own thresholds judge CPU machines on
# calibrated relative time, and half the threads slow the reference workload as much as the
# kernel: an environment change, which calibration is there to cancel, unlike a code change.)
# The slowdown half judges raw time, so its baseline is proposed under those thresholds too: a
# proposal whose raw times a busy machine scattered is measured again or refused (exit 2, "the
# machine was busy"), never approved with an allowance that lets 2x through. When the machine
# stays too busy to propose, the test cannot judge and says so (skip, 77).
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_BUILD_DIR:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp/baselines"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"
# copy n=2^20 is the memory case whose A/A spread every boot of the 2-core CI-class machine
# measured (docs/performance.md); triad n=2^20's 12 MiB, in the Zen 3 boot's shared L3, once
# moved +22% between processes of the same code there, past its allowance.
cases=("copy/cpu/n=1048576" "fma_peak/cpu/n=16384,iters=1024")
opts=(--baselines "$tmp/baselines" --cache-dir "$tmp/cache" --backend cpu)

# propose_and_approve STABLE CANDIDATE BASELINES [options]: exits 77 when the machine was too
# busy. With STABLE=stable a proposal that calls a case unstable is measured again (up to three
# proposals): its allowance is then wide enough to pass what half the threads do to a kernel
# whose two threads shared a core in some runs (seen on a 2-vCPU VM: fma_peak's 2-thread runs
# 29-60% apart, half the threads +40..+51%), so the slowdown half could not judge it.
propose_and_approve() {
  local stable=$1 candidate=$2 baselines=$3 rc attempt
  shift 3
  for attempt in 1 2 3; do
    rc=0
    "$PERFGATE" baseline propose --runs 5 --out "$candidate" --cache-dir "$tmp/cache" --backend cpu \
      --baselines "$baselines" "$@" "${cases[@]}" >"$candidate.log" 2>&1 || rc=$?
    cat "$candidate.log"
    if [ "$rc" -eq 2 ] && grep -q "the machine was busy" "$candidate.log"; then
      echo "SKIP: the machine was too busy to propose a baseline that can judge these cases"
      exit 77
    fi
    [ "$rc" -eq 0 ] || { echo "FAIL: propose exited $rc" >&2; exit 1; }
    if [ "$stable" != stable ] || ! grep -q "^unstable: " "$candidate.log"; then
      "$PERFGATE" baseline approve "$candidate" --by "e2e" --reason "A/A test" --yes --baselines "$baselines"
      return
    fi
    echo "proposal $attempt called a case unstable: measuring again"
  done
  echo "SKIP: three proposals called a case unstable: the machine's cores were too busy to judge a 2x slowdown"
  exit 77
}
propose_and_approve any "$tmp/candidate.yaml" "$tmp/baselines"

# A/A: three times in a row, each a separate perfgate check process.
for round in 1 2 3; do
  for c in "${cases[@]}"; do
    set +e
    out=$("$PERFGATE" check "$c" "${opts[@]}" --require-baseline 2>&1)
    rc=$?
    set -e
    echo "$out"
    if [ "$rc" -ne 0 ]; then
      echo "FAIL: A/A round $round: $c exited $rc" >&2
      exit 1
    fi
  done
done

# ~2x slower: half the threads. (Busy loops beside the kernel are no substitute: a scheduler
# may give them far less than half of each core.)
cores=$(nproc)
if [ "$cores" -lt 2 ]; then
  echo "SKIP: the slowdown half needs 2 or more cores"
  exit 77
fi
mkdir -p "$tmp/strict"
cat > "$tmp/strict/strict.yaml" <<'YAML'
defaults:
  sampling: {min_samples: 20}
  metrics:
    latency_ns: {direction: lower, max_regression_pct: 25, min_change: 1000}
    bandwidth_gbps: {direction: higher, max_regression_pct: 25}
    gflops: {direction: higher, max_regression_pct: 25}
YAML
mkdir -p "$tmp/raw-baselines"
propose_and_approve stable "$tmp/raw-candidate.yaml" "$tmp/raw-baselines" --thresholds "$tmp/strict"
for c in "${cases[@]}"; do
  set +e
  out=$(OMP_NUM_THREADS=$((cores / 2)) "$PERFGATE" check "$c" --cache-dir "$tmp/cache" --backend cpu \
    --baselines "$tmp/raw-baselines" --thresholds "$tmp/strict" 2>&1)
  rc=$?
  set -e
  echo "$out"
  if [ "$rc" -ne 1 ] || ! grep -q ": regressed" <<<"$out"; then
    echo "FAIL: on half the threads $c exited $rc, expected 1 (regressed)" >&2
    exit 1
  fi
  # The regression stood only after a process of its own measured it again (the child inherits
  # OMP_NUM_THREADS: the slowdown is there too).
  if ! grep -q "confirmed by 1 fresh process (latency_ns +" <<<"$out"; then
    echo "FAIL: $c: the regression was not confirmed by a fresh process" >&2
    exit 1
  fi
done
echo "OK: A/A passed 3 times; 2x slowdown regressed"
