#!/usr/bin/env bash
# merge cannot narrow an allowance or launder a candidate's age: one candidate given twice (or
# with a copy of itself) is refused, as is a run id in two parts, with nothing written; a merge
# is as old as its oldest part, so approve's --max-age refuses a 58-day-old candidate merged with
# a fresh one; a sample no measurement gives (a relative time of -1, a time of 0) is refused by
# merge and by approve, naming the file and line.
# Runs beside other tests: it judges no measurement; its proposals' thresholds allow any spread.
source "$(dirname "$0")/../store/e2e_lib.bash"
source "$(dirname "$0")/../measure/e2e_peaks.bash"
seed_peaks "$WORK/cache"

fixture_candidate copy-65536 "$WORK/a.yaml" && fixture_candidate copy-65536-2 "$WORK/b.yaml" || fail "proposing"
before=$(snapshot)
merge() { "$PERFGATE" baseline merge "$@" --out "$WORK/m.yaml" --baselines "$BASELINES" --thresholds "$PROPOSE_THRESHOLDS"; }

# edited IN OUT PYTHON: IN with its text `t` edited by PYTHON, its digest made right again (the
# digest guards against edits, not against a hostile author: what a hand-made file can hold).
edited() {
  python3 - "$1" "$2" "$3" <<'PY'
import hashlib, re, sys
t = open(sys.argv[1]).read()
t = t[:t.rindex("digest:")]
exec(sys.argv[3])
open(sys.argv[2], "w").write(t + "digest: sha256:" + hashlib.sha256(t.encode()).hexdigest() + "\n")
PY
}

cp "$WORK/a.yaml" "$WORK/a-copy.yaml"
expect 2 "run .* is in both $WORK/a.yaml and $WORK/a.yaml \(twice\)" -- merge "$WORK/a.yaml" "$WORK/a.yaml"
expect 2 "run .* is in both $WORK/a.yaml and $WORK/a-copy.yaml" -- merge "$WORK/a.yaml" "$WORK/a-copy.yaml"
expect 2 "run .* is in both" -- merge "$WORK/a.yaml" "$WORK/b.yaml" "$WORK/a-copy.yaml"
first_run=$(sed -n '/^run_ids:/{n;s/^ *- //p}' "$WORK/b.yaml")
edited "$WORK/a.yaml" "$WORK/a-shared.yaml" "t = re.sub(r'(run_ids:\n  - )\S+', r'\g<1>$first_run', t)"
expect 0 "digest ok" -- "$PERFGATE" baseline diff "$WORK/a-shared.yaml" --baselines "$BASELINES"
expect 2 "run $first_run is in both" -- merge "$WORK/a-shared.yaml" "$WORK/b.yaml"
[ ! -e "$WORK/m.yaml" ] || fail "a refused merge wrote its candidate"

# A part proposed 58 days ago: the merge keeps its age, and approve --max-age 14 refuses it.
old_day=$(date -u -d '58 days ago' +%Y-%m-%dT%H:%M:%SZ)
edited "$WORK/a.yaml" "$WORK/old.yaml" "t = re.sub(r'^created_at: .*$', 'created_at: $old_day', t, flags=re.M)"
expect 0 "candidate: $WORK/m.yaml \(4 runs from 2 candidates\)" -- merge "$WORK/old.yaml" "$WORK/b.yaml"
grep -q "^created_at: $old_day" "$WORK/m.yaml" || fail "the merge did not keep the oldest part's created_at"
expect 2 "days old \(created $old_day\), older than --max-age 14" -- "$PERFGATE" baseline approve "$WORK/m.yaml" --by e2e --reason "old" --yes --max-age 14 \
  --baselines "$BASELINES"
expect 0 "allowances once approved" -- merge "$WORK/a.yaml" "$WORK/b.yaml"
[ "$before" = "$(snapshot)" ] || fail "merge or a refused approve changed baselines/"

# Samples no measurement gives: refused by merge and by approve, naming the file and line.
metric=latency_ns
grep -q "relative_latency:" "$WORK/a.yaml" && metric=relative_latency
edited "$WORK/a.yaml" "$WORK/negative.yaml" \
  "t = re.sub(r'(  $metric:\n +- \[)[0-9.e+-]+', r'\g<1>-1', t, count=1)"
# (A run may hold one sample: a proposal beside other tests can time out after its first.)
grep -q -E -- "- \[-1[],]" "$WORK/negative.yaml" || fail "the edit did not write a -1 sample"
expect 2 "negative.yaml:[0-9]+: .*$metric sample -1 is not a measurement" -- merge "$WORK/negative.yaml" "$WORK/b.yaml"
expect 2 "negative.yaml:[0-9]+: .*$metric sample -1 is not a measurement" -- "$PERFGATE" baseline approve \
  "$WORK/negative.yaml" --by e2e --reason "negative" --yes --baselines "$BASELINES"
edited "$WORK/a.yaml" "$WORK/zero.yaml" "t = re.sub(r'(  latency_ns:\n +- \[)[0-9.e+-]+', r'\g<1>0', t, count=1)"
expect 2 "zero.yaml:[0-9]+: .*latency_ns sample 0 is not a measurement" -- "$PERFGATE" baseline approve \
  "$WORK/zero.yaml" --by e2e --reason "zero" --yes --baselines "$BASELINES"
[ "$before" = "$(snapshot)" ] || fail "an impossible sample changed baselines/"
exit $FAILED
