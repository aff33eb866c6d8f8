#!/usr/bin/env bash
# Every command perfgate prints for the user to run next runs as printed and keeps to the
# folders the user named. A user outside the repository, calling the binary by a path of its own
# (`bin/my_perfgate`, as a consumer project's build names it), with --baselines, --thresholds and
# --cache-dir of their own given as relative paths: the hints of `run`, `check`, `baseline
# propose` and `baseline merge` each name `bin/my_perfgate` (never a bare name), keep those
# options, and run as printed (NAME, TEXT and BUILD filled in). Nothing in the repository, nor
# in $HOME, changes: once `baseline propose`'s review hint diffed against the repository's
# baselines and its approve hint wrote there, and both named a bare `perfgate`. Then the
# HTML report of a check judged against the approved baseline draws it beside the run.
# Runs beside other tests: its subject is the printed commands, not a verdict (each check may judge
# its case any way but bad input), and its thresholds allow any spread between a proposal's runs,
# so a neighbour's load never has propose or merge refuse them as a busy machine's.
set -uo pipefail
: "${PERFGATE:?}" "${PERFGATE_E2E_TMP:?}" "${PERFGATE_SOURCE_DIR:?}" "${PERFGATE_BUILD_DIR:?}"
logs="$PERFGATE_E2E_TMP"
rm -rf "$logs" && mkdir -p "$logs"
# The user's folders, outside the repository (its build folder may lie inside it).
U=$(mktemp -d "${TMPDIR:-/tmp}/perfgate-hints.XXXXXX")
trap 'rm -rf "$U"' EXIT
mkdir -p "$U/work/bin" "$U/home" "$U/baselines" "$U/thresholds"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$U/cache"
cp "$PERFGATE_SOURCE_DIR"/thresholds/*.yaml "$U/thresholds/"
sed -i -E 's/^( +propose_max_allowed_pct:) [0-9.]+/\1 100000/' "$U/thresholds/default.yaml"
grep -q '^ *propose_max_allowed_pct: 100000' "$U/thresholds/default.yaml" ||
  { echo "FAIL: lifting propose_max_allowed_pct (thresholds/default.yaml changed?)" >&2; exit 1; }
cat >"$U/thresholds/zz_hints.yaml" <<'YAML'
overrides:
  - match: {case: "copy/cpu/*"}
    sampling: {min_samples: 10, max_samples: 20, min_time_s: 0.1, timeout_s: 5, warmup_s: 0.05}
YAML
ln -s "$(cd "$(dirname "$PERFGATE")" && pwd)/$(basename "$PERFGATE")" "$U/work/bin/my_perfgate"
export HOME="$U/home"
unset XDG_CACHE_HOME PERFGATE_BASELINES_DIR PERFGATE_CACHE_DIR
cd "$U/work" || exit 2
touch "$U/stamp"
MACHINE=$(bin/my_perfgate list --machine-id --backend cpu) || { echo "no cpu machine id"; exit 77; }
SELECT=('copy/cpu/*' --backend cpu --axis n=65536 --baselines ../baselines --thresholds ../thresholds
  --cache-dir ../cache)
FAILED=0
fail() { echo "FAIL: $*" >&2; FAILED=1; }
STEP=0

# perfgate ARGS...: runs bin/my_perfgate, output in $OUT (and a log), exit code in $RC.
perfgate() {
  STEP=$((STEP + 1))
  OUT=$(bin/my_perfgate "$@" 2>&1)
  RC=$?
  printf '+ bin/my_perfgate %s\n%s\n' "$*" "$OUT" >"$logs/$STEP.log"
}
# The hints in $OUT: the indented commands of the next steps, and propose's and merge's
# "review:"/"approve:" lines; every line naming the program names it as typed.
hints() {
  grep -E '^(  |review: +|approve: +)bin/my_perfgate ' <<<"$OUT" | sed -E 's/^(  |review: +|approve: +)//'
  if grep -qE '(^|[ :`])(my_)?perfgate (baseline|check|run) ' <<<"$OUT"; then
    fail "a printed command names a bare program: $(grep -E '(^|[ :`])(my_)?perfgate (baseline|check|run) ' <<<"$OUT")"
  fi
}
# follow HINT: runs one printed command, NAME, TEXT and BUILD filled in; exit code in $RC.
follow() {
  local cmd=$1
  cmd=${cmd/--by NAME --reason TEXT/--by e2e-user --reason \'hints as printed\'}
  cmd=${cmd/--base BUILD/--base $(printf %q "$PERFGATE")}
  STEP=$((STEP + 1))
  echo "+ $cmd"
  OUT=$(eval "$cmd" 2>&1)
  RC=$?
  printf '+ %s\n%s\n' "$cmd" "$OUT" >"$logs/$STEP.log"
  echo "$OUT" | grep -v CTestMeasurement
}
keeps_options() {  # HINT: names the user's baselines (and the thresholds where it measures)
  grep -qF -- "--baselines ../baselines" <<<"$1" || fail "the hint drops --baselines: $1"
  if grep -qE " (propose|check) " <<<"$1"; then
    grep -qF -- "--thresholds ../thresholds" <<<"$1" || fail "the hint drops --thresholds: $1"
  fi
}
busy_skip() {
  if [ "$RC" -eq 2 ] && grep -q "the machine was busy" <<<"$OUT"; then
    echo "SKIP: the machine was too busy to propose; the hints could not all be followed"
    [ "$FAILED" -eq 0 ] && exit 77
    exit 1
  fi
}

# run and check with no baseline: the same three commands.
perfgate run "${SELECT[@]}" --quiet --color never
[ "$RC" -eq 0 ] || fail "run exited $RC"
mapfile -t run_hints < <(hints)
perfgate check "${SELECT[@]}"
[ "$RC" -eq 77 ] || fail "check with no baseline exited $RC (want 77)"
mapfile -t check_hints < <(hints)
[ "${#run_hints[@]}" -eq 3 ] || fail "run printed ${#run_hints[@]} commands, want 3 (propose, approve, check --base)"
[ "${run_hints[*]}" = "${check_hints[*]}" ] || fail "check's commands differ from run's: ${check_hints[*]}"
for h in "${run_hints[@]}"; do keeps_options "$h"; done

# run's propose, then propose's own review and approve, then run's approve (the same candidate).
follow "${run_hints[0]}"
busy_skip
[ "$RC" -eq 0 ] || fail "run's propose hint exited $RC"
mapfile -t propose_hints < <(hints)
[ "${#propose_hints[@]}" -eq 2 ] || fail "propose printed ${#propose_hints[@]} commands, want 2 (review, approve)"
for h in "${propose_hints[@]}"; do keeps_options "$h"; done
follow "${propose_hints[0]}"
[ "$RC" -eq 0 ] || fail "propose's review hint exited $RC"
# Against the user's empty folder every metric is new (the repository holds this machine's copy).
grep -E '^\| copy/cpu/n=65536 \|' <<<"$OUT" | grep -vq '| new |$' && fail "the review diffed against another folder"
grep -q '| new |$' <<<"$OUT" || fail "the review shows no new case"
follow "${propose_hints[1]}"
[ "$RC" -eq 0 ] || fail "propose's approve hint exited $RC"
[ -s "../baselines/$MACHINE/copy.yaml" ] || fail "the approve hint wrote no baseline into ../baselines"
follow "${run_hints[1]}"
[ "$RC" -eq 0 ] || fail "run's approve hint exited $RC"

# merge: a second candidate of the user's own, merged; merge's review (now against the approved
# baseline: old medians shown) and approve.
perfgate baseline propose "${SELECT[@]}" --runs 2 --out second.yaml
busy_skip
[ "$RC" -eq 0 ] || fail "the second propose exited $RC"
perfgate baseline merge "candidate-$MACHINE.yaml" second.yaml --out merged.yaml --baselines ../baselines \
  --thresholds ../thresholds
if [ "$RC" -eq 2 ] && grep -q "disagree as on a busy machine" <<<"$OUT"; then
  echo "SKIP: the two candidates' runs disagreed as on a busy machine; merge's hints could not be followed"
  [ "$FAILED" -eq 0 ] && exit 77
  exit 1
fi
[ "$RC" -eq 0 ] || fail "merge exited $RC"
mapfile -t merge_hints < <(hints)
[ "${#merge_hints[@]}" -eq 2 ] || fail "merge printed ${#merge_hints[@]} commands, want 2 (review, approve)"
for h in "${merge_hints[@]}"; do keeps_options "$h"; done
follow "${merge_hints[0]}"
[ "$RC" -eq 0 ] || fail "merge's review hint exited $RC"
grep -qE '^\| copy/cpu/n=65536 \| latency_ns \| [0-9.]+ [µnm]?s \|' <<<"$OUT" ||
  fail "merge's review does not diff against the approved baseline in ../baselines"
follow "${merge_hints[1]}"
[ "$RC" -eq 0 ] || fail "merge's approve hint exited $RC"

# run's A/B check, BUILD being this build: judged (0), or noise called a change (1); never bad input.
follow "${run_hints[2]}"
[ "$RC" -le 1 ] || fail "run's check --base hint exited $RC"

# A check judged against the approved baseline: its HTML report draws that baseline's samples
# beside the run's (it once said "No baseline results given"), and no lock is left behind in
# the baselines folder, which a CI recipe commits.
perfgate check "${SELECT[@]}" --json judged.json
[ "$RC" -le 1 ] || fail "the check against the approved baseline exited $RC"
perfgate report judged.json --html judged.html --baselines ../baselines
[ "$RC" -eq 0 ] || fail "report --html exited $RC"
grep -q "Baseline samples from the approved baselines in <code>../baselines</code>" judged.html ||
  fail "the HTML report does not draw the approved baseline's samples"
grep -q "No baseline results given" judged.html && fail "the HTML report says no baseline was given"
[ -z "$(find ../baselines -name '.lock')" ] || fail "a lock file is left in the baselines folder"

# Only the user's folders changed: their baselines, cache and working folder.
cd / || exit 2
changed=$(find "$PERFGATE_SOURCE_DIR" -path "$PERFGATE_BUILD_DIR" -prune -o -path "$PERFGATE_SOURCE_DIR/.git" -prune \
  -o -newer "$U/stamp" -print)
[ -z "$changed" ] || fail "the repository changed: $changed"
[ -z "$(find "$U/home" -mindepth 1)" ] || fail "\$HOME changed: $(find "$U/home" -mindepth 1)"
[ -s "$U/work/candidate-$MACHINE.yaml" ] && [ -s "$U/work/merged.yaml" ] || fail "the candidates are not in the working folder"
[ "$FAILED" -eq 0 ] && echo "OK: run's, check's, propose's and merge's $((${#run_hints[@]} + 4)) commands ran as printed"
exit $FAILED
