#include "judge/thresholds.h"

#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <set>
#include <sstream>

#include "core/yaml_load.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "store/yaml_document.h"

namespace perfgate {

const std::vector<std::string>& known_metrics() {
  static const std::vector<std::string> names = {
      metric::latency_ns, metric::host_latency_ns, metric::cold_latency_ns, metric::bandwidth_gbps,
      metric::gflops,     metric::pct_peak_bw,     metric::relative_latency};
  return names;
}

namespace {

// A thresholds file is a few hundred lines; a larger one is a mistake or an attack.
constexpr std::uintmax_t kMaxThresholdsFileBytes = 1u << 20;

// Times are better lower; rates and fractions of peak are better higher.
Direction natural_direction(const std::string& metric) {
  return metric.ends_with("_ns") ? Direction::lower : Direction::higher;
}

void apply_metric(const YamlDocument& in, const YAML::Node& map, const std::string& path, MetricThreshold& m) {
  in.fields(map, path,
            {"direction", "max_regression_pct", "min_allowed_pct", "dram_min_allowed_pct", "compute_min_allowed_pct",
             "load_factor", "load_max_pct", "min_change", "floor"},
            [&](const std::string& key, const YAML::Node& value, const std::string& at) {
              if (key == "direction") {
                const std::string direction = in.scalar_text(value, at);
                if (direction != "lower" && direction != "higher")
                  throw in.error(value, at, "expected \"lower\" or \"higher\", got " + YamlDocument::describe_node(value));
                m.direction = direction == "higher" ? Direction::higher : Direction::lower;
              } else if (key == "max_regression_pct") {
                m.max_regression_pct = in.plain_number_at_least(value, at, 0);
              } else if (key == "min_allowed_pct") {
                m.min_allowed_pct = in.plain_number_at_least(value, at, 0);
              } else if (key == "dram_min_allowed_pct") {
                m.dram_min_allowed_pct = in.plain_number_at_least(value, at, 0);
              } else if (key == "compute_min_allowed_pct") {
                m.compute_min_allowed_pct = in.plain_number_at_least(value, at, 0);
              } else if (key == "load_factor") {
                m.load_factor = in.plain_number_at_least(value, at, 0);
              } else if (key == "load_max_pct") {
                m.load_max_pct = in.plain_number_at_least(value, at, 0);
              } else if (key == "min_change") {
                m.min_change = in.plain_number_at_least(value, at, 0);
              } else {
                m.floor = in.plain_number_at_least(value, at, 0);
              }
            });
}

void apply_sampling(const YamlDocument& in, const YAML::Node& map, const std::string& path,
                    SamplingSettings& s) {
  in.fields(map, path,
            {"min_samples", "max_samples", "min_time_s", "timeout_s", "target_precision_pct", "warmup_s",
             "batch_min_time_ms", "allocations", "calibrate", "verdict_precision"},
            [&](const std::string& key, const YAML::Node& value, const std::string& at) {
              if (key == "min_samples")
                s.min_samples = in.plain_integer_at_least(value, at, 1);
              else if (key == "max_samples")
                s.max_samples = in.plain_integer_at_least(value, at, 1);
              else if (key == "min_time_s")
                s.min_time_s = in.plain_number_at_least(value, at, 0);
              else if (key == "timeout_s")
                s.timeout_s = in.plain_number_at_least(value, at, 0);
              else if (key == "target_precision_pct")
                s.target_precision_pct = in.plain_number_at_least(value, at, 0);
              else if (key == "warmup_s")
                s.warmup_s = in.plain_number_at_least(value, at, 0);
              else if (key == "allocations")
                s.allocations = in.plain_integer_at_least(value, at, 1);
              else if (key == "calibrate")
                s.calibrate = in.plain_boolean(value, at);
              else if (key == "verdict_precision")
                s.verdict_precision = in.plain_number_at_least(value, at, 0);
              else
                s.batch_min_time_ms = in.plain_number_at_least(value, at, 0);
            });
}

void apply_history(const YamlDocument& in, const YAML::Node& map, const std::string& path,
                   ChangePointSettings& h) {
  in.fields(map, path,
            {"min_segment", "min_magnitude_pct", "significance", "drift_max_pct", "magnitude_sigmas", "drift_sigmas"},
            [&](const std::string& key, const YAML::Node& value, const std::string& at) {
              if (key == "min_segment") {
                h.min_segment = in.plain_integer_at_least(value, at, 2);
              } else if (key == "min_magnitude_pct") {
                h.min_magnitude_pct = in.plain_number_at_least(value, at, 0);
              } else if (key == "drift_max_pct") {
                h.drift_max_pct = in.plain_number_at_least(value, at, 0);
              } else if (key == "magnitude_sigmas") {
                h.magnitude_sigmas = in.plain_number_at_least(value, at, 0);
              } else if (key == "drift_sigmas") {
                h.drift_sigmas = in.plain_number_at_least(value, at, 0);
              } else {
                h.significance = in.plain_number(value, at);
                if (h.significance <= 0 || h.significance >= 1)
                  throw in.error(value, at, "must be between 0 and 1 (exclusive), got " + value.Scalar());
              }
            });
}

// The settings shared by `defaults` and an override (which also has `match`, read elsewhere).
void apply_settings(const YamlDocument& in, const YAML::Node& map, const std::string& path, bool is_override,
                    Thresholds& t) {
  auto each = [&](const std::string& key, const YAML::Node& value, const std::string& at) {
    if (key == "significance") {
      t.significance = in.plain_number(value, at);
      if (t.significance <= 0 || t.significance >= 1)
        throw in.error(value, at, "must be between 0 and 1 (exclusive), got " + value.Scalar());
    } else if (key == "remeasure") {
      t.remeasure = in.plain_integer_at_least(value, at, 0);
    } else if (key == "noise_factor") {
      t.noise_factor = in.plain_number_at_least(value, at, 0);
    } else if (key == "confirm") {
      t.confirm = in.plain_integer_at_least(value, at, 0);
    } else if (key == "propose_max_allowed_pct") {
      t.propose_max_allowed_pct = in.plain_number_at_least(value, at, 0);
    } else if (key == "ab_max_regression_pct") {
      t.ab_max_regression_pct = in.plain_number_at_least(value, at, 0);
    } else if (key == "ab_min_rounds") {
      t.ab_min_rounds = in.plain_integer_at_least(value, at, 1);
    } else if (key == "ab_min_time_s") {
      t.ab_min_time_s = in.plain_number_at_least(value, at, 0);
    } else if (key == "ab_max_rounds") {
      t.ab_max_rounds = in.plain_integer_at_least(value, at, 1);
    } else if (key == "ab_samples_per_round") {
      t.ab_samples_per_round = in.plain_integer_at_least(value, at, 1);
    } else if (key == "sampling") {
      apply_sampling(in, value, at, t.sampling);
    } else if (key == "history") {
      apply_history(in, value, at, t.history);
    } else if (key == "metrics") {
      in.fields(value, at, {}, [&](const std::string& name, const YAML::Node& m, const std::string& mat) {
        const auto& known = known_metrics();
        if (std::find(known.begin(), known.end(), name) == known.end()) {
          std::string expected;
          for (const auto& k : known) expected += (expected.empty() ? "" : ", ") + k;
          throw in.error(m, mat, "unknown metric (expected one of: " + expected + ")");
        }
        auto [entry, added] = t.metrics.try_emplace(name);
        if (added) entry->second.direction = natural_direction(name);
        apply_metric(in, m, mat, entry->second);
      });
    }
  };
  if (is_override)
    in.fields(
        map, path,
        {"match", "significance", "remeasure", "confirm", "noise_factor", "propose_max_allowed_pct", "ab_max_regression_pct", "ab_min_rounds",
         "ab_min_time_s", "ab_max_rounds", "ab_samples_per_round", "sampling", "history", "metrics"},
        each);
  else
    in.fields(
        map, path,
        {"significance", "remeasure", "confirm", "noise_factor", "propose_max_allowed_pct", "ab_max_regression_pct", "ab_min_rounds",
         "ab_min_time_s", "ab_max_rounds", "ab_samples_per_round", "sampling", "history", "metrics"},
        each);
}

// Settings that are each valid but contradict one another.
void check_consistent(const Thresholds& t, const std::string& where) {
  if (t.sampling.min_samples > t.sampling.max_samples)
    throw Error(where + ": sampling: min_samples (" + std::to_string(t.sampling.min_samples) +
                ") exceeds max_samples (" + std::to_string(t.sampling.max_samples) + ")");
  if (t.ab_min_rounds > t.ab_max_rounds)
    throw Error(where + ": ab_min_rounds (" + std::to_string(t.ab_min_rounds) + ") exceeds ab_max_rounds (" +
                std::to_string(t.ab_max_rounds) + ")");
}

}  // namespace

class ThresholdSet::Loader {
 public:
  explicit Loader(ThresholdSet& set) : set_(set) {}

  void add(const std::string& text, const std::string& file) {
    set_.files_.push_back(file);
    const YamlDocument in(file, text);
    in.fields(in.root(), "", {"defaults", "overrides"},
              [&](const std::string& key, const YAML::Node& value, const std::string& at) {
                if (key == "defaults") {
                  apply_settings(in, value, at, false, set_.defaults_);
                  defaults_where_ = in.where(value);
                } else {
                  add_overrides(in, value, at);
                }
              });
  }

  // Whole-folder checks, once every file is in.
  void finish(const std::string& folder) {
    if (defaults_where_.empty())
      throw located_error(folder, 0, "defaults", "no thresholds file has a `defaults` section");
    check_consistent(set_.defaults_, defaults_where_);
    for (const Override& o : set_.overrides_) {
      Thresholds t = set_.defaults_;
      o.apply(t);
      check_consistent(t, o.where);
    }
  }

 private:
  void add_overrides(const YamlDocument& in, const YAML::Node& list, const std::string& path) {
    if (list.IsNull()) return;
    if (!list.IsSequence()) throw in.error(list, path, "expected a list, got " + YamlDocument::describe_node(list));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const YAML::Node item = list[i];
      const std::string at = path + "[" + std::to_string(i) + "]";
      if (!item.IsMap()) throw in.error(item, at, "expected a map, got " + YamlDocument::describe_node(item));
      Override o;
      o.where = in.where(item);
      in.fields(item["match"], at + ".match", {"case", "machine"},
                [&](const std::string& key, const YAML::Node& value, const std::string& key_at) {
                  (key == "case" ? o.case_glob : o.machine_glob) = in.scalar_text(value, key_at);
                });
      // Applied here once to find every error at load time; resolve() re-applies the same node.
      Thresholds scratch;
      apply_settings(in, item, at, true, scratch);
      o.apply = [in, item, at](Thresholds& t) { apply_settings(in, item, at, true, t); };
      set_.overrides_.push_back(std::move(o));
    }
  }

  ThresholdSet& set_;
  std::string defaults_where_;
};

ThresholdSet ThresholdSet::load(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw located_error(dir.string(), 0, "", "thresholds folder not found");
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  ThresholdSet set;
  Loader loader(set);
  for (const fs::path& path : paths) {
    loader.add(read_bounded_file(path, kMaxThresholdsFileBytes), path.string());
  }
  loader.finish(dir.string());
  return set;
}

ThresholdSet ThresholdSet::from_yaml_text(std::string_view text, const std::string& filename) {
  ThresholdSet set;
  Loader loader(set);
  loader.add(std::string(text), filename);
  loader.finish(filename);
  return set;
}

Thresholds ThresholdSet::resolve(std::string_view case_id, std::string_view machine_id) const {
  const std::string case_name(case_id), machine(machine_id);
  Thresholds t = defaults_;
  std::string last_where;
  for (const Override& o : overrides_) {
    if (fnmatch(o.case_glob.c_str(), case_name.c_str(), 0) != 0) continue;
    if (fnmatch(o.machine_glob.c_str(), machine.c_str(), 0) != 0) continue;
    o.apply(t);
    last_where = o.where;
  }
  // Two overrides, each consistent with the defaults, may still contradict each other.
  if (!last_where.empty()) check_consistent(t, last_where + " (for " + case_name + ")");
  std::erase_if(t.metrics, [](const auto& entry) { return !entry.second.judged(); });
  return t;
}

}  // namespace perfgate
