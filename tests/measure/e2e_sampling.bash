# Shared by the end-to-end tests that measure but whose subject is not the measurement's noise
# (the files, the commands' output, the reports): the shipped thresholds with a brief sampling
# budget. Under the shipped budget a measurement samples until its median is known to 1% or 20 s
# have passed; beside another test on a 2-core machine it seldom gets there, so each measurement
# of such a test took its 20 s (docs/performance.md, "The README's two commands with an empty
# compiler cache"), and with 4 s a measurement still took its 4 s (copy n=65536 on the 2-core VM,
# quiet: a 2-run proposal 8.4 s, 7.9 CPU-s; with at most 20 samples 2.0 s). What the tests assert
# of the files and the output is the same either way.
# Sourced, not run: its name does not end in .sh, so CTest does not pick it up as a test.

# brief_sampling DIR: DIR made, holding the shipped thresholds and zz_brief.yaml, read last, which
# gives every case at least 10 samples over 0.1 s, and at most 20 samples and 4 s a measurement.
brief_sampling() {
  mkdir -p "$1"
  cp "${PERFGATE_SOURCE_DIR:?}"/thresholds/*.yaml "$1"/
  printf 'overrides:\n  - match: {}\n    sampling: {min_samples: 10, max_samples: 20, min_time_s: 0.1, timeout_s: 4, warmup_s: 0.05}\n' \
    >"$1/zz_brief.yaml"
}
