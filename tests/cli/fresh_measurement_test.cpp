// The fresh process that confirms a regression is told what the check's stopping rule read, so
// it stops on a decided verdict as the check did, and on nothing else where the check did not.
#include "cli/fresh_measurement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace perfgate {
namespace {

// The value after `flag` in args, or "" where the flag is absent.
std::string fresh_arg_after(const std::vector<std::string>& args, const std::string& flag) {
  const auto at = std::find(args.begin(), args.end(), flag);
  return at == args.end() || at + 1 == args.end() ? "" : *(at + 1);
}

bool fresh_args_have(const std::vector<std::string>& args, const std::string& flag) {
  return std::find(args.begin(), args.end(), flag) != args.end();
}

TEST(FreshProcessArgs, CarryTheChecksDecidedVerdictRuleExactly) {
  RunFlags flags;
  flags.common.thresholds_dir = "/thresholds";
  const CaseSpec spec = parse_case_id("copy/cpu/n=65536");
  SamplingSettings sampling;
  sampling.calibrate = true;
  sampling.calibration_reference = "calibration_stream/cpu/n=65536";
  sampling.verdict_allowance_pct = 6.3999999999999995;  // a figure %g would round
  sampling.verdict_baseline_median = 0.99123456789012345;
  sampling.verdict_baseline_relative = true;
  const auto args = fresh_process_args(flags, spec, 7, sampling, "/tmp/fresh.json");
  EXPECT_EQ(args.front(), "measure");
  EXPECT_EQ(fresh_arg_after(args, "--calibrate-against"), "calibration_stream/cpu/n=65536");
  EXPECT_EQ(std::strtod(fresh_arg_after(args, "--verdict-allowance").c_str(), nullptr), sampling.verdict_allowance_pct);
  EXPECT_EQ(std::strtod(fresh_arg_after(args, "--verdict-median").c_str(), nullptr), sampling.verdict_baseline_median);
  EXPECT_TRUE(fresh_args_have(args, "--verdict-relative"));

  // Raw-timed against its baseline: the median is of raw times, not relative ones.
  sampling.verdict_baseline_relative = false;
  EXPECT_FALSE(fresh_args_have(fresh_process_args(flags, spec, 7, sampling, "/tmp/fresh.json"), "--verdict-relative"));
}

TEST(FreshProcessArgs, WithoutAVerdictRuleTheChildSamplesToItsPrecisionTarget) {
  RunFlags flags;
  const CaseSpec spec = parse_case_id("copy/cpu/n=65536");
  SamplingSettings sampling;  // `perfgate run`: no allowance, no baseline median
  const auto args = fresh_process_args(flags, spec, 7, sampling, "/tmp/fresh.json");
  EXPECT_TRUE(fresh_args_have(args, "--alone"));
  EXPECT_FALSE(fresh_args_have(args, "--verdict-allowance"));
  EXPECT_FALSE(fresh_args_have(args, "--verdict-median"));
  EXPECT_FALSE(fresh_args_have(args, "--verdict-relative"));
}

}  // namespace
}  // namespace perfgate
