#!/usr/bin/env bash
# `check --history DIR` (and PERFGATE_HISTORY) judges a case with the spread its runs in this
# machine's history have shown, in place of the thresholds' floors, and says so; a history with
# fewer runs than a baseline (5) changes nothing, and neither does a check without one. The
# history is this machine's own: one real run of the case, appended as ten gated runs whose
# medians scatter by a known spread.
set -euo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}"
tmp="$PERFGATE_E2E_TMP"
rm -rf "$tmp" && mkdir -p "$tmp"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$tmp/cache"
case_id="copy/cpu/n=1048576"
# The shipped thresholds, measured briefly (tests/measure/e2e_sampling.bash): what is asserted is
# which spread judges the check, not the measurement's precision.
source "$(dirname "$0")/../measure/e2e_sampling.bash"
brief_sampling "$tmp/thresholds"
opts=(--baselines "$tmp/baselines" --cache-dir "$tmp/cache" --thresholds "$tmp/thresholds")
fail() { echo "FAIL: $*" >&2; exit 1; }

# A proposal is accepted while its runs' sigma allows at most propose_max_allowed_pct (100%);
# a check widens that sigma to its 90% bound from the runs' number, 8x for two runs: up to about
# 800%. The history below, neighbouring runs 9x apart, allows far more, so where the proposal is
# accepted the history's allowance is the larger and is named (with runs 1.5x apart, 140%, a
# proposal whose two runs differed by 5% out-allowed it). A machine too busy to propose cannot
# judge this (skip).
set +e
"$PERFGATE" baseline propose "$case_id" --runs 2 --out "$tmp/candidate.yaml" "${opts[@]}" >"$tmp/propose.out" 2>&1
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  cat "$tmp/propose.out"
  [ "$rc" -eq 2 ] && grep -q "machine is quiet" "$tmp/propose.out" && exit 77
  fail "propose exited $rc"
fi
"$PERFGATE" baseline approve "$tmp/candidate.yaml" --by e2e --reason "history noise" --yes --baselines "$tmp/baselines" >/dev/null

# One real run, appended, then copied as ten runs of this machine whose judged medians alternate
# between a third and three times its own.
"$PERFGATE" run "$case_id" --json "$tmp/run.json" "${opts[@]}" >/dev/null
"$PERFGATE" report "$tmp/run.json" --history "$tmp/one" --append-history >/dev/null
make_history() {  # make_history DIR RUNS
  python3 - "$tmp/one" "$1" "$2" <<'PY'
import glob, json, os, sys
source, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out, exist_ok=True)
[path] = glob.glob(os.path.join(source, "*.jsonl"))
line = json.loads(open(path).readline())
with open(os.path.join(out, os.path.basename(path)), "w") as f:
    for i in range(runs):
        e = dict(line, run_id=f"run-{i:02d}", started_at=f"2026-11-{10 + i:02d}T00:00:00Z", commit=f"c{i:02d}")
        factor = 3.0 if i % 2 else 1 / 3  # neighbouring runs 9x apart
        e["medians"] = {k: v * factor if "latency" in k else v for k, v in line["medians"].items()}
        f.write(json.dumps(e) + "\n")
PY
}
make_history "$tmp/ten" 10
make_history "$tmp/four" 4

check() {  # check NAME [args...]: the check's output in $tmp/NAME.out
  local name=$1; shift
  set +e
  "$PERFGATE" check "$case_id" "${opts[@]}" "$@" >"$tmp/$name.out" 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 0 ] || { cat "$tmp/$name.out"; fail "check $name exited $rc"; }
}
check with --history "$tmp/ten"
grep -q "the history's 10 runs on this machine spread" "$tmp/with.out" || { cat "$tmp/with.out"; fail "--history: the allowance does not name the history"; }
PERFGATE_HISTORY="$tmp/ten" check env
grep -q "the history's 10 runs" "$tmp/env.out" || { cat "$tmp/env.out"; fail "PERFGATE_HISTORY: the allowance does not name the history"; }
check few --history "$tmp/four"
check none
for name in few none; do
  ! grep -q "the history's" "$tmp/$name.out" || { cat "$tmp/$name.out"; fail "$name: judged with a history it should not use"; }
done
echo "OK: --history and PERFGATE_HISTORY judge with the machine's record; 4 runs or none change nothing"
