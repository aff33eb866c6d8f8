// The thresholds model: merging defaults and overrides, and strict validation whose errors
// name the file, the line and the key.
#include "judge/thresholds.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "perfgate/error.h"

namespace perfgate {
namespace {

const char* kExample = R"(# thresholds/default.yaml
defaults:
  significance: 0.01
  remeasure: 2
  noise_factor: 2.0
  sampling:
    min_samples: 10
    max_samples: 200
    min_time_s: 0.3
    timeout_s: 20
    target_precision_pct: 1.0
    warmup_s: 0.1
    batch_min_time_ms: 2
  metrics:
    latency_ns:     {direction: lower,  max_regression_pct: 15, min_change: 1000}
    bandwidth_gbps: {direction: higher, max_regression_pct: 15}
    gflops:         {direction: higher, max_regression_pct: 15}
    pct_peak_bw:    {direction: higher, floor: 0}
overrides:
  - match: {case: "copy/cpu/*", machine: "cpu-*"}
    metrics:
      latency_ns: {max_regression_pct: 25}
    sampling: {min_samples: 20}
  - match: {case: "copy/*"}
    metrics:
      latency_ns: {max_regression_pct: 30}
      pct_peak_bw: {floor: 40}
)";

TEST(ThresholdSet, ResolvesDefaults) {
  const Thresholds t =
      ThresholdSet::from_yaml_text(kExample, "default.yaml").resolve("triad/cpu/n=1", "cpu-x");
  EXPECT_DOUBLE_EQ(t.significance, 0.01);
  EXPECT_EQ(t.remeasure, 2);
  EXPECT_DOUBLE_EQ(t.noise_factor, 2.0);
  EXPECT_EQ(t.sampling.min_samples, 10);
  EXPECT_EQ(t.sampling.max_samples, 200);
  EXPECT_DOUBLE_EQ(t.sampling.min_time_s, 0.3);
  EXPECT_DOUBLE_EQ(t.sampling.timeout_s, 20);
  EXPECT_DOUBLE_EQ(t.sampling.target_precision_pct, 1.0);
  EXPECT_DOUBLE_EQ(t.sampling.warmup_s, 0.1);
  EXPECT_DOUBLE_EQ(t.sampling.batch_min_time_ms, 2);
  ASSERT_EQ(t.metrics.count("latency_ns"), 1u);
  const MetricThreshold& latency = t.metrics.at("latency_ns");
  EXPECT_EQ(latency.direction, Direction::lower);
  EXPECT_EQ(latency.max_regression_pct, 15);
  EXPECT_EQ(latency.min_change, 1000);
  EXPECT_FALSE(latency.floor);
  EXPECT_EQ(t.metrics.at("bandwidth_gbps").direction, Direction::higher);
  // floor 0 is off and pct_peak_bw has nothing else: not judged, so not listed.
  EXPECT_EQ(t.metrics.count("pct_peak_bw"), 0u);
  EXPECT_EQ(t.metrics.size(), 3u);
}

TEST(ThresholdSet, LaterMatchingOverridesWinFieldByField) {
  const ThresholdSet set = ThresholdSet::from_yaml_text(kExample, "default.yaml");
  const Thresholds both = set.resolve("copy/cpu/n=4096", "cpu-amd-epyc");
  EXPECT_EQ(both.metrics.at("latency_ns").max_regression_pct, 30);  // the second match wins
  EXPECT_EQ(both.metrics.at("latency_ns").min_change, 1000);        // untouched fields stay
  EXPECT_EQ(both.sampling.min_samples, 20);                         // from the first match
  EXPECT_EQ(both.sampling.max_samples, 200);
  ASSERT_EQ(both.metrics.count("pct_peak_bw"), 1u);  // a floor set: now judged
  EXPECT_EQ(both.metrics.at("pct_peak_bw").floor, 40);

  const Thresholds other_machine = set.resolve("copy/cpu/n=4096", "llvmpipe");
  EXPECT_EQ(other_machine.metrics.at("latency_ns").max_regression_pct, 30);
  EXPECT_EQ(other_machine.sampling.min_samples, 10);

  const Thresholds vulkan = set.resolve("copy/vulkan/n=4096", "cpu-amd-epyc");
  EXPECT_EQ(vulkan.sampling.min_samples, 10);
}

TEST(ThresholdSet, DirectionDefaultsFromTheMetricName) {
  const Thresholds t =
      ThresholdSet::from_yaml_text(
          "defaults:\n  metrics:\n    cold_latency_ns: {max_regression_pct: 20}\n    gflops: {floor: 5}\n",
          "d.yaml")
          .resolve("a", "b");
  EXPECT_EQ(t.metrics.at("cold_latency_ns").direction, Direction::lower);
  EXPECT_EQ(t.metrics.at("gflops").direction, Direction::higher);
  EXPECT_DOUBLE_EQ(t.significance, 0.01);  // built-in values for what a file leaves out
}

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("perfgate_thresholds_test_" + name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
};

TEST(ThresholdSet, LoadsEveryFileInNameOrder) {
  TempDir dir("order");
  dir.write("b_team.yaml", "overrides:\n  - metrics: {latency_ns: {max_regression_pct: 40}}\n");
  dir.write("a_default.yaml", kExample);
  dir.write("c_last.yml", "defaults:\n  noise_factor: 3\n");
  dir.write("notes.txt", "not yaml: [");  // other files are ignored
  const ThresholdSet set = ThresholdSet::load(dir.path);
  ASSERT_EQ(set.files().size(), 3u);
  EXPECT_NE(set.files()[0].find("a_default.yaml"), std::string::npos);
  const Thresholds t = set.resolve("copy/cpu/n=1", "cpu-x");
  EXPECT_EQ(t.metrics.at("latency_ns").max_regression_pct, 40);  // b_team's override is last
  EXPECT_DOUBLE_EQ(t.noise_factor, 3);                           // defaults merge across files
  EXPECT_DOUBLE_EQ(t.significance, 0.01);
}

TEST(ThresholdSet, RepositoryDefaultsLoad) {
  const ThresholdSet set = ThresholdSet::load(std::filesystem::path(PERFGATE_SOURCE_DIR) / "thresholds");
  const Thresholds t = set.resolve("q4_0_matvec/vulkan/m=4096,k=4096", "nvidia-h100-80gb-hbm3");
  // A dedicated GPU: the allowance is the measured noise, no floor, nothing fixed, no name.
  EXPECT_FALSE(t.metrics.at("latency_ns").max_regression_pct.has_value());
  EXPECT_EQ(t.metrics.at("latency_ns").min_allowed_pct, 0);
  EXPECT_FALSE(t.metrics.at("latency_ns").dram_min_allowed_pct.has_value());
  EXPECT_EQ(t.confirm, 1);
  // No machine is given a number by its name: a shared machine's moves between periods are
  // measured by its history or a merge (judge/judge_case.cpp), not fixed here.
  for (const char* machine : {"cpu-amd-epyc-2t", "llvmpipe"})
    for (const char* metric : {"latency_ns", "relative_latency"}) {
      const MetricThreshold m = set.resolve("copy/cpu/n=1048576", machine).metrics.at(metric);
      EXPECT_FALSE(m.max_regression_pct.has_value()) << machine << " " << metric;
      EXPECT_EQ(m.min_allowed_pct.value_or(0), 0) << machine << " " << metric;
      EXPECT_FALSE(m.compute_min_allowed_pct.has_value()) << machine << " " << metric;
    }
  EXPECT_EQ(t.metrics.at("latency_ns").direction, Direction::lower);
  EXPECT_EQ(t.metrics.at("bandwidth_gbps").direction, Direction::higher);
  // Shared machines measure calibrated (relative to a reference at the same moment); GPUs do not.
  EXPECT_FALSE(t.sampling.calibrate);
  const Thresholds cpu = set.resolve("copy/cpu/n=1048576", "cpu-amd-epyc-2t");
  EXPECT_TRUE(cpu.sampling.calibrate);
  EXPECT_TRUE(cpu.metrics.at("relative_latency").load_factor.has_value());
  EXPECT_EQ(cpu.metrics.at("relative_latency").direction, Direction::lower);
  EXPECT_TRUE(set.resolve("copy/vulkan/n=1048576", "llvmpipe").sampling.calibrate);
  // A check samples to a tenth of its allowance; nothing in a file sets the allowance itself.
  EXPECT_EQ(t.sampling.verdict_precision, 0.1);
  EXPECT_EQ(t.sampling.verdict_allowance_pct, 0);
}

TEST(ThresholdSet, HistorySettingsMergeAndAreChecked) {
  const ThresholdSet set = ThresholdSet::from_yaml_text(
      "defaults:\n"
      "  history: {min_segment: 6, significance: 0.01}\n"
      "overrides:\n"
      "  - match: {machine: \"cpu-*\"}\n"
      "    history: {min_magnitude_pct: 5, drift_max_pct: 12}\n",
      "h.yaml");
  const ChangePointSettings gpu = set.resolve("copy/vulkan/n=1", "nvidia-h100").history;
  EXPECT_EQ(gpu.min_segment, 6);
  EXPECT_DOUBLE_EQ(gpu.significance, 0.01);
  EXPECT_DOUBLE_EQ(gpu.min_magnitude_pct, ChangePointSettings{}.min_magnitude_pct);
  const ChangePointSettings cpu = set.resolve("copy/cpu/n=1", "cpu-x").history;
  EXPECT_EQ(cpu.min_segment, 6);
  EXPECT_DOUBLE_EQ(cpu.min_magnitude_pct, 5);
  EXPECT_DOUBLE_EQ(cpu.drift_max_pct, 12);
  EXPECT_THROW(ThresholdSet::from_yaml_text("defaults:\n  history: {min_segment: 1}\n", "h.yaml"), Error);
  EXPECT_THROW(ThresholdSet::from_yaml_text("defaults:\n  history: {significance: 1.5}\n", "h.yaml"), Error);
  EXPECT_THROW(ThresholdSet::from_yaml_text("defaults:\n  history: {window: 12}\n", "h.yaml"), Error);
  EXPECT_DOUBLE_EQ(set.resolve("copy/cpu/n=1", "cpu-x").history.magnitude_sigmas, 4);
  EXPECT_THROW(ThresholdSet::from_yaml_text("defaults:\n  history: {drift_sigmas: -1}\n", "h.yaml"), Error);
  // The repository's: no machine named; each series' own noise sets its smallest step and drift.
  const ThresholdSet repo = ThresholdSet::load(std::filesystem::path(PERFGATE_SOURCE_DIR) / "thresholds");
  for (const char* machine : {"nvidia-h100-80gb-hbm3", "cpu-amd-epyc-2t", "llvmpipe"}) {
    const ChangePointSettings h = repo.resolve("copy/cpu/n=1", machine).history;
    EXPECT_DOUBLE_EQ(h.min_magnitude_pct, 0) << machine;
    EXPECT_DOUBLE_EQ(h.magnitude_sigmas, 4) << machine;
    EXPECT_DOUBLE_EQ(h.drift_sigmas, 8) << machine;
  }
}

// Loading `load` must throw an Error whose message contains `fragment`.
template <class Load>
::testing::AssertionResult fails_with(Load&& load, const std::string& fragment) {
  try {
    load();
  } catch (const Error& e) {
    if (std::string(e.what()).find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "error \"" << e.what() << "\" lacks \"" << fragment << "\"";
  }
  return ::testing::AssertionFailure() << "no error; expected one with \"" << fragment << "\"";
}

::testing::AssertionResult text_fails_with(const std::string& yaml, const std::string& fragment) {
  return fails_with([&] { ThresholdSet::from_yaml_text(yaml, "t.yaml"); }, fragment);
}

TEST(ThresholdErrors, UnknownKeyNamesFileLineAndKey) {
  EXPECT_TRUE(
      text_fails_with("defaults:\n  significance: 0.01\n  metrics:\n    latency_ns: {direction: lower, "
                      "max_regresion_pct: 10}\n",
                      "t.yaml:4: defaults.metrics.latency_ns.max_regresion_pct: unknown key"));
  EXPECT_TRUE(text_fails_with("defaults: {}\nextra: 1\n", "t.yaml:2: extra: unknown key"));
  EXPECT_TRUE(
      text_fails_with("defaults:\n  sampling: {min_sample: 3}\n", "t.yaml:2: defaults.sampling.min_sample"));
}

TEST(ThresholdErrors, WrongTypes) {
  EXPECT_TRUE(text_fails_with("defaults:\n  significance: lots\n",
                              "t.yaml:2: defaults.significance: expected a number, got \"lots\""));
  // A quoted number is a string.
  EXPECT_TRUE(text_fails_with("defaults:\n  noise_factor: \"2\"\n",
                              "t.yaml:2: defaults.noise_factor: expected a number"));
  EXPECT_TRUE(text_fails_with("defaults:\n  sampling: {calibrate: 1}\n",
                              "t.yaml:2: defaults.sampling.calibrate: expected true or false"));
  EXPECT_TRUE(text_fails_with("defaults:\n  metrics: {relative_latncy: {max_regression_pct: 5}}\n",
                              "unknown metric (expected one of: latency_ns"));
  EXPECT_TRUE(text_fails_with("defaults:\n  remeasure: 1.5\n",
                              "t.yaml:2: defaults.remeasure: expected a whole number"));
  EXPECT_TRUE(text_fails_with("defaults:\n  metrics: [latency_ns]\n",
                              "t.yaml:2: defaults.metrics: expected a map, got a list"));
  EXPECT_TRUE(
      text_fails_with("defaults: {}\noverrides: {match: {}}\n", "t.yaml:2: overrides: expected a list"));
  EXPECT_TRUE(text_fails_with("defaults: {}\noverrides:\n  - match: {case: [a]}\n",
                              "t.yaml:3: overrides[0].match.case: expected a string"));
}

TEST(ThresholdErrors, OutOfRangeValues) {
  EXPECT_TRUE(
      text_fails_with("defaults:\n  metrics:\n    gflops: {max_regression_pct: -5}\n",
                      "t.yaml:3: defaults.metrics.gflops.max_regression_pct: must be at least 0, got -5"));
  EXPECT_TRUE(
      text_fails_with("defaults:\n  metrics:\n    gflops: {min_allowed_pct: -1}\n",
                      "t.yaml:3: defaults.metrics.gflops.min_allowed_pct: must be at least 0, got -1"));
  EXPECT_TRUE(text_fails_with("defaults:\n  confirm: -1\n",
                              "t.yaml:2: defaults.confirm: must be at least 0, got -1"));
  EXPECT_TRUE(
      text_fails_with("defaults:\n  significance: 1.5\n", "defaults.significance: must be between 0 and 1"));
  EXPECT_TRUE(
      text_fails_with("defaults:\n  sampling: {min_samples: 0}\n", "min_samples: must be at least 1"));
  EXPECT_TRUE(
      text_fails_with("defaults:\n  metrics:\n    gflops: {direction: sideways}\n",
                      "t.yaml:3: defaults.metrics.gflops.direction: expected \"lower\" or \"higher\""));
  EXPECT_TRUE(text_fails_with("defaults:\n  metrics:\n    latency: {max_regression_pct: 5}\n",
                              "t.yaml:3: defaults.metrics.latency: unknown metric"));
  EXPECT_TRUE(text_fails_with("defaults:\n  sampling: {min_samples: 50, max_samples: 20}\n",
                              "t.yaml:2: sampling: min_samples (50) exceeds max_samples (20)"));
  EXPECT_TRUE(text_fails_with("defaults: {}\noverrides:\n  - sampling: {min_samples: 500}\n",
                              "t.yaml:3: sampling: min_samples (500) exceeds"));
}

TEST(ThresholdErrors, StructuralProblems) {
  EXPECT_TRUE(text_fails_with("defaults:\n  significance: [oops\n", "t.yaml:"));
  EXPECT_TRUE(text_fails_with("defaults:\n  significance: [oops\n", "malformed YAML"));
  EXPECT_TRUE(text_fails_with("overrides: []\n", "defaults: no thresholds file has a `defaults` section"));
  // An empty file is refused like a truncated baseline: the one YAML reader (store/yaml_document.h).
  EXPECT_TRUE(text_fails_with("", "t.yaml:1: expected a YAML map at the top (empty or truncated file?)"));
  EXPECT_TRUE(text_fails_with("defaults:\n  remeasure: 1\n  remeasure: 2\n",
                              "t.yaml:3: defaults.remeasure: given twice"));
  EXPECT_TRUE(text_fails_with("- 1\n- 2\n", "t.yaml:1: expected a YAML map at the top"));
}

TEST(ThresholdErrors, FolderProblems) {
  const std::filesystem::path missing =
      std::filesystem::temp_directory_path() / "perfgate_no_such_thresholds";
  EXPECT_TRUE(fails_with([&] { ThresholdSet::load(missing); },
                         "perfgate_no_such_thresholds: thresholds folder not found"));
  TempDir dir("nodefaults");
  dir.write("only_overrides.yaml", "overrides: []\n");
  EXPECT_TRUE(
      fails_with([&] { ThresholdSet::load(dir.path); }, "no thresholds file has a `defaults` section"));
  dir.write("bad.yaml", "defaults:\n  noise_factor: x\n");
  EXPECT_TRUE(fails_with([&] { ThresholdSet::load(dir.path); }, "bad.yaml:2: defaults.noise_factor"));
}

}  // namespace
}  // namespace perfgate
