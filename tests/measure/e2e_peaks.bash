# Shared by the end-to-end tests that measure cases but do not test how peaks are measured: the
# device peaks e2e/peaks_setup measured once for this ctest run (the CTest fixture e2e_peaks,
# tests/CMakeLists.txt) go into the test's scratch cache folder, so that each test does not
# measure them again (~10 s on the 2-core CI machine). Sourced, not run: its name does not end in
# .sh, so CTest does not pick it up as a test.

# seed_peaks DIR: DIR made, and the fixture's peaks files copied into it. Without them (the
# script run by hand), or with provisional ones past their 10 minutes (measured in a busy moment,
# docs/kernels.md), the test's first perfgate command measures peaks, as a user's first run does.
seed_peaks() {
  mkdir -p "$1"
  local file
  for file in "${PERFGATE_E2E_PEAKS:-/nonexistent}"/peaks-*.json; do
    [ -f "$file" ] && cp "$file" "$1"/
  done
  return 0
}
