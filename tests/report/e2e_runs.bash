# Shared by the end-to-end tests that report real runs but judge none themselves (report_html,
# fleet_report, junit_schema): two real runs of copy n=65536,1048576 on the CPU with no baselines
# (baseline.json, current.json) and the second judged against the first by `perfgate compare`
# (judged.json). The CTest fixture e2e_copy_runs (tests/e2e/copy_runs_setup.sh) measures them
# once per ctest run into PERFGATE_E2E_COPY_RUNS, where each test measured its own; a script that
# calls copy_runs requires that fixture (tests/CMakeLists.txt). Sourced, not run: its name does
# not end in .sh, so CTest does not pick it up as a test.

# make_copy_runs DIR CACHE: the three files measured into DIR (briefly: the reports' subject is
# not their noise, tests/measure/e2e_sampling.bash), the device peaks in CACHE.
source "$(dirname "${BASH_SOURCE[0]}")/../measure/e2e_sampling.bash"
make_copy_runs() {
  local dir=$1 cache=$2 name rc
  mkdir -p "$dir"
  brief_sampling "$dir/thresholds"
  for name in baseline current; do
    rc=0
    "$PERFGATE" run --backend cpu --kernel copy --axis n=65536,1048576 --cache-dir "$cache" \
      --baselines "$dir/no-baselines" --thresholds "$dir/thresholds" --json "$dir/$name.json" >"$dir/$name.out" 2>&1 || rc=$?
    [ -s "$dir/$name.json" ] || { cat "$dir/$name.out"; echo "FAIL: perfgate run ($name) wrote no results (exit $rc)" >&2; return 1; }
  done
  rc=0
  "$PERFGATE" compare "$dir/baseline.json" "$dir/current.json" --json "$dir/judged.json" >"$dir/compare.out" 2>&1 || rc=$?
  [ "$rc" -le 1 ] && [ -s "$dir/judged.json" ] || { cat "$dir/compare.out"; echo "FAIL: perfgate compare exited $rc" >&2; return 1; }
}

# copy_runs DIR: the fixture's three files copied into DIR; without them (the script run by hand),
# measured there as the fixture measures them.
copy_runs() {
  local dir=$1 from=${PERFGATE_E2E_COPY_RUNS:-/nonexistent}
  mkdir -p "$dir"
  if [ -s "$from/judged.json" ]; then
    cp "$from/baseline.json" "$from/current.json" "$from/judged.json" "$dir"/
  else
    make_copy_runs "$dir" "$dir/cache"
  fi
}
