# Shared by e2e/ab_gate and e2e/ab_gate_setup: the slowed copy of this project that ab_gate gates
# against this build, its copy kernel doing four times the work (tests/study/build_slowed.sh
# copy/cpu 300): past what any baseline a proposal may write could name against one period (an
# allowance of at most propose_max_allowed_pct, 100%, past a bound of 50%: 2 x 1.5 = 3x), so that
# a busy machine's wide proposal cannot turn the stored-baseline half into a named change. Built like this build (same Vulkan option) and kept in the build folder. e2e/ab_gate_setup
# (the CTest fixture e2e_ab_slowed) builds it beside other tests; ab_gate, which runs alone, then
# finds it built (on a fresh 2-core machine the build was most of ab_gate's time). Where ccache is
# installed both compile through it (PERFGATE_CCACHE), so only the patched kernel compiles anew.
# Sourced, not run: its name does not end in .sh, so CTest does not pick it up as a test.

# slowed_build: the tools checked (exit 77 without them), the copy built or brought up to date;
# sets slowed_dir and slowed (its perfgate binary).
slowed_build() {
  local tool vulkan start
  for tool in cmake ninja "${CXX:-c++}"; do
    if ! command -v "$tool" >/dev/null; then
      echo "SKIP: no $tool to build the slowed copy with"
      exit 77
    fi
  done
  vulkan=$(sed -n 's/^PERFGATE_VULKAN:BOOL=//p' "${PERFGATE_BUILD_DIR:?}/CMakeCache.txt")
  slowed_dir="$PERFGATE_BUILD_DIR/ab-gate-slowed"
  start=$(date +%s)
  slowed=$(PERFGATE_SOURCE_DIR="${PERFGATE_SOURCE_DIR:?}" CMAKE_ARGS="-DPERFGATE_VULKAN=${vulkan:-ON}" \
    bash "$PERFGATE_SOURCE_DIR/tests/study/build_slowed.sh" copy/cpu 300 "$slowed_dir" | tail -1)
  echo "slowed build: $slowed ($(($(date +%s) - start)) s)"
}
