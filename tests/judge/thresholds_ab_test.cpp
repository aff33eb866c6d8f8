// The A/B knobs of the thresholds: shipped defaults, machine overrides, strict validation.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "judge/thresholds.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

TEST(ThresholdsAb, RepositoryDefaults) {
  const ThresholdSet set = ThresholdSet::load(std::filesystem::path(PERFGATE_SOURCE_DIR) / "thresholds");
  const Thresholds t = set.resolve("copy/cpu/n=1048576", "cpu-amd-epyc-2t");
  EXPECT_GT(t.ab_max_regression_pct, 0);
  EXPECT_LE(t.ab_min_rounds, t.ab_max_rounds);
  EXPECT_GE(t.ab_samples_per_round, 1);
}

TEST(ThresholdsAb, MachineOverridesWin) {
  const ThresholdSet set = ThresholdSet::from_yaml_text(
      "defaults:\n  ab_max_regression_pct: 5\n  ab_min_rounds: 10\n  ab_max_rounds: 50\n"
      "  ab_samples_per_round: 2\n  ab_min_time_s: 0.5\n"
      "overrides:\n  - match: {machine: \"llvmpipe*\"}\n    ab_max_regression_pct: 8\n    ab_max_rounds: "
      "80\n",
      "t.yaml");
  const Thresholds gpu = set.resolve("copy/vulkan/n=1048576,wg=256", "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(gpu.ab_max_regression_pct, 5);
  EXPECT_EQ(gpu.ab_min_rounds, 10);
  EXPECT_EQ(gpu.ab_max_rounds, 50);
  EXPECT_EQ(gpu.ab_samples_per_round, 2);
  EXPECT_EQ(gpu.ab_min_time_s, 0.5);
  const Thresholds cpu_vulkan = set.resolve("copy/vulkan/n=1048576,wg=256", "llvmpipe");
  EXPECT_EQ(cpu_vulkan.ab_max_regression_pct, 8);
  EXPECT_EQ(cpu_vulkan.ab_max_rounds, 80);
  EXPECT_EQ(cpu_vulkan.ab_min_rounds, 10);
}

std::string error_of(const std::string& yaml) {
  try {
    ThresholdSet::from_yaml_text(yaml, "t.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ThresholdsAb, BadValuesNameFileLineAndKey) {
  EXPECT_NE(error_of("defaults:\n  ab_max_regression_pct: -1\n")
                .find("t.yaml:2: defaults.ab_max_regression_pct: must be at least 0"),
            std::string::npos);
  EXPECT_NE(error_of("defaults:\n  ab_min_rounds: 2.5\n")
                .find("t.yaml:2: defaults.ab_min_rounds: expected a whole number"),
            std::string::npos);
  EXPECT_NE(error_of("defaults:\n  ab_min_time_s: -2\n").find("ab_min_time_s: must be at least 0"),
            std::string::npos);
  EXPECT_NE(
      error_of("defaults:\n  ab_samples_per_round: 0\n").find("ab_samples_per_round: must be at least 1"),
      std::string::npos);
  EXPECT_NE(error_of("defaults:\n  ab_min_rounds: 90\n  ab_max_rounds: 30\n")
                .find("ab_min_rounds (90) exceeds ab_max_rounds (30)"),
            std::string::npos);
  EXPECT_NE(error_of("defaults:\n  ab_rounds: 3\n").find("t.yaml:2: defaults.ab_rounds: unknown key"),
            std::string::npos);
}

}  // namespace
}  // namespace perfgate
