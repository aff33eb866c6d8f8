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

# The candidates the baseline tests start from, proposed once per ctest run by e2e/candidates_setup
# (the CTest fixture e2e_candidates, into PERFGATE_E2E_CANDIDATES), where each test proposed its
# own: copy n=65536 (two periods: copy-65536, copy-65536-2), copy n=131072, copy n=65536 and
# 131072 in one candidate (copy-both, copy-both-2), copy and triad n=65536 (copy-triad,
# copy-triad-2). A test copies one before it edits, approves or merges it. What the tests assert
# of a proposal's own output (its candidate line, its refusals) they still propose themselves.
CANDIDATE_NAMES=(copy-65536 copy-65536-2 copy-131072 copy-both copy-both-2 copy-triad copy-triad-2)
# make_candidate NAME FILE: the candidate NAME proposed into FILE, its output in FILE.propose.log.
make_candidate() {
  local SELECT=("${SELECT[@]}")
  case $1 in
    copy-65536 | copy-65536-2) propose "$2" 65536 ;;
    copy-131072) propose "$2" 131072 ;;
    copy-both | copy-both-2) propose "$2" 65536 131072 ;;
    copy-triad | copy-triad-2) SELECT+=(--kernel triad) && propose "$2" 65536 ;;
    *) fail "no candidate named $1" && return 1 ;;
  esac
}
# fixture_candidate NAME FILE: the fixture's candidate NAME (and its propose log) copied to FILE;
# without the fixture (the script run by hand), proposed there as the fixture proposes it. A script
# that calls fixture_candidate requires the fixture (tests/CMakeLists.txt).
fixture_candidate() {
  local from=${PERFGATE_E2E_CANDIDATES:-/nonexistent}/$1.yaml
  if [ -s "$from" ]; then
    cp "$from" "$2" && cp "$from.propose.log" "$2.propose.log"
  else
    make_candidate "$1" "$2"
  fi
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
