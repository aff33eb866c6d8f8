#pragma once
// The thresholds model: thresholds/*.yaml hold `defaults` and `overrides` matched by case and
// machine globs. Every file of the folder is read in name order; defaults merge field by field
// in that order, then every matching override in file order, so later matches win.
//
//   defaults:
//     significance: 0.01
//     remeasure: 2
//     noise_factor: 2.0
//     ab_max_regression_pct: 5        (also ab_min_rounds, ab_min_time_s, ab_max_rounds, ab_samples_per_round)
//     sampling: {min_samples: 10, ...}
//     metrics:
//       latency_ns: {direction: lower, max_regression_pct: 15, min_change: 1000}
//   overrides:
//     - match: {case: "copy/cpu/*", machine: "cpu-*"}
//       metrics: {latency_ns: {max_regression_pct: 25}}
//
// Validation is strict: an unknown key, a wrong type, an out-of-range value or broken YAML
// throws perfgate::Error "file:line: key: message".
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perfgate {

struct MetricThreshold {
  std::string direction = "lower";         // "lower" | "higher": which way is better
  std::optional<double> max_regression_pct;  // relative threshold, % worse than the baseline
  std::optional<double> min_change;          // absolute, in the metric's unit: smaller never regresses
  std::optional<double> floor;               // absolute limit; 0 = off (see has_floor)

  bool higher_is_better() const { return direction == "higher"; }
  bool has_floor() const { return floor && *floor > 0; }
  // A metric is judged only when it has something to be judged against.
  bool judged() const { return max_regression_pct.has_value() || has_floor(); }
};

struct SamplingSettings {
  int min_samples = 10;
  int max_samples = 200;
  double min_time_s = 0.3;
  double timeout_s = 20;
  double target_precision_pct = 1.0;  // stop when the median's 95% CI half-width is below this
  double warmup_s = 0.1;
  double batch_min_time_ms = 2;       // a sample is a batch of dispatches lasting this long
};

struct Thresholds {
  double significance = 0.01;  // p-value below which a change is significant
  int remeasure = 2;           // re-measurements before an inconclusive verdict stands
  double noise_factor = 2.0;   // allowed regression widens to this x the baseline run spread
  SamplingSettings sampling;
  // A/B checks (`check --base`): base and head builds measured in interleaved rounds, judged on
  // the per-round ratios. Their time budget is sampling.timeout_s.
  double ab_max_regression_pct = 5;  // change in the median round ratio allowed either way
  int ab_min_rounds = 20;            // rounds before a verdict may stop the check
  double ab_min_time_s = 2;          // and the time they must span: a burst cannot fill them all
  int ab_max_rounds = 400;
  int ab_samples_per_round = 3;      // batches each side takes per round
  // Only the judged metrics (MetricThreshold::judged) after resolve().
  std::map<std::string, MetricThreshold> metrics;
};

class ThresholdSet {
 public:
  // Every *.yaml / *.yml file of `dir`, in name order. Throws Error when the folder is missing,
  // when no file has `defaults`, or on any invalid file.
  static ThresholdSet load(const std::filesystem::path& dir);
  // One document, as if it were the only file of the folder (`filename` appears in errors).
  static ThresholdSet from_yaml_text(std::string_view text, const std::string& filename);

  // Defaults, then every override whose globs (fnmatch) match, in file order, field by field.
  Thresholds resolve(std::string_view case_id, std::string_view machine_id) const;

  // Where the settings came from, e.g. for a report footer.
  const std::vector<std::string>& files() const { return files_; }

 private:
  struct Override {
    std::string case_glob = "*";
    std::string machine_glob = "*";
    std::string where;                       // "file:line", for a conflict found at resolve
    std::function<void(Thresholds&)> apply;  // sets exactly the fields the override names
  };
  class Loader;

  Thresholds defaults_;
  std::vector<Override> overrides_;
  std::vector<std::string> files_;
};

// The metric names perfgate measures (result.h); a thresholds file naming another is an error.
const std::vector<std::string>& known_metrics();

}  // namespace perfgate
