#!/usr/bin/env bash
# How well A/B checks tell a slowdown from noise on this machine (a study, not a test: it is
# not registered with ctest, and its figures depend on the machine and on what else runs).
#
#   tests/study/ab_detection.sh BASE SLOWED CASE [N]
#
# BASE: a perfgate binary; SLOWED: a binary of the same project doing more work on CASE (e.g.
# from tests/study/build_slowed.sh). Runs N (default 10) A/A checks (BASE against itself) and
# N slowdown checks (SLOWED against BASE), each a separate `perfgate check CASE --base`
# process, alternating, and prints the counts (false failures, caught) and the median
# head/base ratios each check found.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BASE SLOWED CASE [N]" >&2
  exit 2
fi
base=$1 slowed=$2 case_id=$3 n=${4:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one_check() {  # one_check HEAD LABEL INDEX -> "exit ratio verdict"
  local head=$1 label=$2 i=$3 rc ratio verdict
  set +e
  "$head" check "$case_id" --base "$base" --quiet >"$tmp/$label-$i.txt" 2>&1
  rc=$?
  set -e
  ratio=$(sed -n 's/.*head\/base median ratio \([0-9.]*\).*/\1/p' "$tmp/$label-$i.txt" | head -1)
  verdict=$(sed -n "s|^$case_id: \\([a-z-]*\\)\$|\\1|p" "$tmp/$label-$i.txt" | head -1)
  echo "$rc ${ratio:-?} ${verdict:-?}"
}

summary() {  # summary TITLE FILE: counts and sorted ratios of one set of checks
  local title=$1 file=$2
  echo "$title: $(awk '$1 == 1' "$file" | wc -l) regressed (exit 1), $(awk '$3 == "inconclusive"' "$file" | wc -l) inconclusive," \
    "$(awk '$1 == 0 && $3 != "inconclusive"' "$file" | wc -l) pass/improved, $(awk '$1 != 0 && $1 != 1' "$file" | wc -l) other (exit 2/77), of $(wc -l <"$file")"
  echo "  median head/base ratios, sorted: $(awk '{print $2}' "$file" | sort -g | tr '\n' ' ')"
}

for i in $(seq 1 "$n"); do
  one_check "$base" aa "$i" | tee -a "$tmp/aa.results" | sed "s|^|A/A $i: exit |"
  one_check "$slowed" slow "$i" | tee -a "$tmp/slow.results" | sed "s|^|slowed $i: exit |"
done
echo
echo "case $case_id, $n checks each, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
summary "A/A (regressed = false failure)" "$tmp/aa.results"
summary "slowed (regressed = caught)" "$tmp/slow.results"
