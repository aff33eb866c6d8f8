# Shared by tests/e2e/baseline_*.sh: a scratch baselines folder, a cheap real selection, and
# checks that every baseline file still parses. Sourced, not run: its name does not end in .sh,
# so CTest does not pick it up as a test.
set -uo pipefail
: "${PERFGATE:?PERFGATE must name the perfgate binary}" "${PERFGATE_E2E_TMP:?}"
WORK="$PERFGATE_E2E_TMP"
rm -rf "$WORK" && mkdir -p "$WORK/baselines"
BASELINES="$WORK/baselines"
unset PERFGATE_TEST_APPROVE_DELAY_MS || true
# `perfgate X --help` succeeds for an unknown X too: look for the command in the list.
"$PERFGATE" --help >"$WORK/help.out" 2>&1
if ! grep -Eq '^ +baseline ' "$WORK/help.out"; then
  echo "this perfgate has no baseline command yet:"; cat "$WORK/help.out"; exit 77
fi
MACHINE=$("$PERFGATE" list --machine-id --backend cpu) || { echo "no cpu machine id"; exit 77; }
# Small and quick: one case per axis value, two separate runs.
SELECT=(--kernel copy --backend cpu --cache-dir "$WORK/cache")
FAILED=0

fail() { echo "FAIL: $*" >&2; FAILED=1; }

# expect CODE PATTERN -- command...: the exit code and a line of the output (stdout + stderr).
expect() {
  local code=$1 pattern=$2
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -Eq -- "$pattern" <<<"$out"; then
    fail "'$*' exited $rc (want $code, output matching '$pattern'), output:"
    echo "$out" >&2
  else
    echo "ok: exit $rc: $(grep -E -- "$pattern" <<<"$out" | head -1)"
  fi
}

# propose FILE AXIS_VALUE...: a candidate of copy/cpu/n=<value> for each value. These tests are
# about the files, not the machine's noise: propose judges its runs (here and wherever a test
# passes PROPOSE_THRESHOLDS) under the shipped thresholds but for propose_max_allowed_pct, which beside a parallel build refused two-run proposals of
# copy whose runs were 27-101% apart (tests/e2e/baseline_busy.sh tests that refusal), and
# measures each run briefly (tests/measure/e2e_sampling.bash).
PROPOSE_THRESHOLDS="$WORK/propose-thresholds"
source "$(dirname "${BASH_SOURCE[0]}")/../measure/e2e_sampling.bash"
brief_sampling "$PROPOSE_THRESHOLDS"
sed -i -E 's/^( +propose_max_allowed_pct:) [0-9.]+/\1 100000/' "$PROPOSE_THRESHOLDS/default.yaml"
propose() {
  local out=$1
  shift
  local values
  values=$(IFS=,; echo "$*")
  "$PERFGATE" baseline propose --runs 2 --quiet --out "$out" --baselines "$BASELINES" "${SELECT[@]}" \
    --thresholds "$PROPOSE_THRESHOLDS" --axis "n=$values" >"$out.propose.log" 2>&1 ||
    { cat "$out.propose.log" >&2; fail "propose $out"; return 1; }
}

approve() {  # approve FILE NAME REASON [more options]
  local file=$1 by=$2 reason=$3
  shift 3
  "$PERFGATE" baseline approve "$file" --by "$by" --reason "$reason" --yes --baselines "$BASELINES" "$@"
}

# A listing of every file under the baselines folder with its hash, to prove nothing changed.
snapshot() { (cd "$BASELINES" && find . -type f ! -name .lock -print0 | sort -z | xargs -0 -r sha256sum); }

# Every baseline file parses (perfgate's own reader, and PyYAML when there is one).
PYYAML=0
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null && PYYAML=1
all_valid() {
  "$PERFGATE" baseline show --baselines "$BASELINES" >"$WORK/show.out" 2>&1 || {
    cat "$WORK/show.out" >&2
    return 1
  }
  if [ "$PYYAML" = 1 ]; then
    find "$BASELINES" -name '*.yaml' ! -name '.*' -print0 |
      xargs -0 -r python3 -c 'import sys, yaml; [yaml.safe_load(open(f)) for f in sys.argv[1:]]' || return 1
  fi
}

log_lines() { wc -l <"$BASELINES/$MACHINE/APPROVALS.log" 2>/dev/null || echo 0; }
