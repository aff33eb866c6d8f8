#pragma once
// The thresholds model: thresholds/*.yaml hold `defaults` and `overrides` matched by case and
// machine globs. Every file of the folder is read in name order; defaults merge field by field
// in that order, then every matching override in file order, so later matches win.
//
//   defaults:
//     significance: 0.01
//     remeasure: 2
//     confirm: 1
//     noise_factor: 4.0
//     ab_max_regression_pct: 5        (also ab_min_rounds, ab_min_time_s, ab_max_rounds,
//     ab_samples_per_round) sampling: {min_samples: 10, ...}
//     history: {min_segment: 5, min_magnitude_pct: 0.5, significance: 0.001, drift_max_pct: 10}
//     metrics:
//       latency_ns: {direction: lower, min_allowed_pct: 2, min_change: 50}
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

#include "core/sampling_settings.h"
#include "stats/change_points.h"

namespace perfgate {

// Which way is better for a metric: thresholds files say `direction: lower` or `higher`.
enum class Direction { lower, higher };

// What about a case chooses its floor (MetricThreshold::for_case): where its working set lives
// (CaseResult::fits_in_cache) and whether memory bounds its time (CaseResult::bound "memory";
// "compute" and "latency" do not; an unknown bound counts as memory, the finer floor).
struct CaseShape {
  bool fits_in_cache = true;
  bool memory_bound = true;
  // Timed by a GPU's own clock (kept_by_gpu_clock): no neighbour's work slows such a run, so a run
  // apart from the others is the case's own (for_case, leave_odd_run_out).
  bool gpu_clock = false;
};
inline bool bound_by_memory(std::string_view bound) { return bound != "compute" && bound != "latency"; }
// Whether a case's time is a GPU's own: a Vulkan case judged on raw time. A time the host's cores
// keep (the CPU backend, a Vulkan driver running on the CPU) is calibrated against a reference
// on a shared machine, and a busy neighbour can stretch one run of it.
inline bool kept_by_gpu_clock(std::string_view backend, std::string_view calibration_reference) {
  return backend == "vulkan" && calibration_reference.empty();
}

struct MetricThreshold {
  Direction direction = Direction::lower;
  // The allowed regression, % worse than the baseline. Without a fixed max_regression_pct it
  // follows the case's own run-to-run noise (noise_factor x sigma), never below min_allowed_pct;
  // a fixed one is the least allowed (the noise may still widen it, never narrow it).
  std::optional<double> max_regression_pct;
  std::optional<double> min_allowed_pct;
  // The floor instead of min_allowed_pct for a case whose working set is larger than the device's
  // last-level cache (CaseResult::fits_in_cache false): such cases stream DRAM, whose time a
  // dedicated GPU repeats far more closely than a cache-resident case's (for_case).
  std::optional<double> dram_min_allowed_pct;
  // The floor instead of min_allowed_pct (where larger) for a case bound by compute or latency
  // (CaseShape; the bound its baseline recorded, else the check's): on a shared CPU machine such
  // a case's time moves against its reference between periods far more than a memory-bound
  // case's does (for_case).
  std::optional<double> compute_min_allowed_pct;
  // Calibrated cases on a shared machine (judge/load_allowance.h): the allowance follows how busy
  // the machine was during this very check, load_factor x the spread its rounds showed
  // (stats/check_spread.h), at most load_max_pct, never below the rest of the allowance.
  std::optional<double> load_factor;
  std::optional<double> load_max_pct;
  std::optional<double> min_change;  // absolute, in the metric's unit: smaller never regresses
  std::optional<double> floor;       // absolute limit; 0 = off (see has_floor)
  // Which key min_allowed_pct came from, for the allowance's explanation (for_case).
  std::string floor_key = "min_allowed_pct";
  // Whether one run apart from the others is left out of the noise as a neighbour's doing
  // (stats/run_noise.h). Not for a GPU's own clock (for_case): on an H200, attention_layer's
  // proposal had one run 1.1% slower, left out, and its checks came back 1.0-1.3% slower in 2 of
  // 10 A/A runs, each confirmed: a mode of its own, which the allowance must cover.
  bool leave_odd_run_out = true;
  // The allowance the machine's own history measured for the case (judge/history_noise.h:
  // noise_factor x the bound of its gated runs' spread), where it holds enough runs: it takes the
  // place of min_allowed_pct, and measures the moves between periods that one proposal's runs
  // cannot see; `history_why` says where it came from.
  std::optional<double> history_allowed_pct;
  std::string history_why;
  // A check on one of several GPUs its baseline's runs measured: noise_factor x the bound of the
  // spread of each GPU's runs about their own level, pooled over them (judge/device_spread.h),
  // the least it is allowed; `pooled_why` says so.
  std::optional<double> pooled_allowed_pct;
  std::string pooled_why;

  bool higher_is_better() const { return direction == Direction::higher; }
  bool has_floor() const { return floor && *floor > 0; }
  // A metric is judged only when it has something to be judged against.
  bool judged() const { return relative() || has_floor(); }
  // Judged against the baseline by a relative allowance (fixed or from the noise).
  bool relative() const { return max_regression_pct.has_value() || min_allowed_pct.has_value(); }
  // This threshold for a case of `shape`: a DRAM-sized case's floor is dram_min_allowed_pct, a
  // case bound by compute or latency at least compute_min_allowed_pct, where they are set; a run
  // apart is the case's own on a GPU's clock (leave_odd_run_out); every other field is unchanged.
  MetricThreshold for_case(const CaseShape& shape) const {
    MetricThreshold t = *this;
    t.leave_odd_run_out = !shape.gpu_clock;
    if (!min_allowed_pct) return t;
    if (!shape.fits_in_cache && dram_min_allowed_pct) {
      t.min_allowed_pct = dram_min_allowed_pct;
      t.floor_key = "dram_min_allowed_pct (working set beyond the last-level cache)";
    }
    if (!shape.memory_bound && compute_min_allowed_pct && *compute_min_allowed_pct > *t.min_allowed_pct) {
      t.min_allowed_pct = compute_min_allowed_pct;
      t.floor_key = "compute_min_allowed_pct (bound by compute or latency, not memory)";
    }
    return t;
  }
};

struct Thresholds {
  double significance = 0.01;  // p-value below which a change is significant
  int remeasure = 2;           // re-measurements before an inconclusive verdict stands
  int confirm = 1;             // fresh measurements that must confirm a regression before it stands
  double noise_factor = 4.0;   // allowed regression: this x the upper bound of the baseline's run-to-run sigma
  // The widest allowance a proposal's runs may give a case (beyond what its metric's thresholds
  // allow anyway): runs that disagree more were measured on a busy machine, and `baseline
  // propose` measures more runs or refuses (judge/busy_runs.h). A baseline allowing more than
  // 100% would let the 2x slowdown through that the gate promises to catch.
  double propose_max_allowed_pct = 100;
  SamplingSettings sampling;
  // A/B checks (`check --base`): base and head builds measured in interleaved rounds, judged on
  // the per-round ratios. Their time budget is sampling.timeout_s.
  double ab_max_regression_pct = 5;  // change in the median round ratio allowed either way
  int ab_min_rounds = 20;            // rounds before a verdict may stop the check
  double ab_min_time_s = 2;          // and the time they must span: a burst cannot fill them all
  int ab_max_rounds = 400;
  int ab_samples_per_round = 3;  // batches each side takes per round
  // Change points in a case's history and drift (`perfgate history --changes/--gate`).
  ChangePointSettings history;
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
