// A rule not in perfgate, tried offline on a study's saved checks: the history's runs of a device
// tightening a check's allowance, not only widening it (docs/performance.md, "Two H200s of a host
// the rule was not chosen on"). For each check whose GPU has at least MIN_RUNS runs of the case
// in the history before it (the A/A results themselves, in the order they started):
//   allowed = min(the allowance the check recorded,
//                 max(the history's own allowance (judge/history_noise.h),
//                     max(0, history level - baseline) + noise_factor x the 90% bound of the sigma
//                     pooled over the baseline's runs of the GPU and the history's runs))
// It counts first measurements past the recorded allowance and past the tightened one, for the
// A/A results and for the slowed build's checks (after `--`). EXCHANGE=1: every other A/A run of
// the GPU is the history (A/A runs taken as exchangeable in time), as a CI's history would hold
// by the time a slowdown lands. The statistics are the harness's own (stats/).
//
//   c++ -std=c++20 -O1 -Iharness/src -Iharness/include tests/study/history_tightening.cpp \
//     build/harness/libperfgate_harness.a -lyaml-cpp -lfmt -lcurl -lcrypto -lspirv-cross-c-shared \
//     -lvulkan -fopenmp -o /tmp/history_tightening
//   /tmp/history_tightening BASELINES_DIR THRESHOLDS_DIR MIN_RUNS AA.json... -- SLOWED.json...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "judge/device_spread.h"
#include "judge/history_noise.h"
#include "judge/thresholds.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "stats/change_points.h"
#include "stats/chi_squared.h"
#include "stats/run_noise.h"
#include "stats/summary.h"
#include "store/baseline.h"
#include "store/result_json.h"

namespace {

using namespace perfgate;

struct Check {
  std::string started_at, file, case_id, device;
  Judgement latency;
  bool slowed = false;
};

double sd_pct(const std::vector<double>& values) {
  double mean = 0, squares = 0;
  for (double v : values) mean += v / values.size();
  for (double v : values) squares += (v - mean) * (v - mean);
  return 100 * std::sqrt(squares / (values.size() - 1)) / mean;
}

// The run medians of latency_ns the baseline holds for `device`; none where it has no such runs.
std::vector<double> baseline_medians(const std::optional<BaselineCase>& baseline, const std::string& device) {
  if (!baseline) return {};
  const auto runs = baseline->runs.find(metric::latency_ns);
  if (runs == baseline->runs.end()) return {};
  auto by_device = medians_by_device(runs->second, baseline->run_devices);
  return by_device[device];
}

// The rule's allowance from the history's runs before a check (`prior`) and the baseline's runs
// of its GPU (`own`), as the header says.
double tightened_pct(const std::vector<double>& prior, const std::vector<double>& own, double baseline_median,
                     double factor) {
  HistoryNoise history;
  history.runs = static_cast<int>(prior.size());
  history.sigma_pct = series_noise_pct(prior);
  history.bound_pct = history.sigma_pct * sigma_upper_factor(history.runs, kSigmaConfidence);
  const double level = median(prior);
  std::vector<double> apart;  // as judge/history_noise.cpp: the second-farthest run from the level
  for (double v : prior) apart.push_back(100 * std::fabs(v / level - 1));
  std::sort(apart.begin(), apart.end(), std::greater<>());
  history.apart_pct = apart[1];
  const int nb = static_cast<int>(own.size()), nh = history.runs;
  const double sb = sd_pct(own), sh = history.sigma_pct;
  const double pooled = std::sqrt(((nb - 1) * sb * sb + (nh - 1) * sh * sh) / (nb + nh - 2));
  const double excess = std::max(0.0, 100 * (level / baseline_median - 1));
  return std::max(history_allowed_pct(history, factor, nullptr),
                  excess + factor * pooled * sigma_upper_factor(nb + nh - 1, kSigmaConfidence));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s BASELINES_DIR THRESHOLDS_DIR MIN_RUNS AA.json... -- SLOWED.json...\n",
                 argv[0]);
    return 2;
  }
  try {
    const BaselineStore baselines(argv[1]);
    const ThresholdSet thresholds = ThresholdSet::load(argv[2]);
    const int min_runs = std::atoi(argv[3]);
    const bool exchange = std::getenv("EXCHANGE") && std::string(std::getenv("EXCHANGE")) == "1";
    std::vector<Check> checks;
    std::string machine;
    bool slowed = false;
    for (int i = 4; i < argc; ++i) {
      if (std::string(argv[i]) == "--") {
        slowed = true;
        continue;
      }
      const RunResult run = read_results(argv[i]);
      machine = run.fingerprint.machine_id;
      for (const CaseResult& c : run.cases)
        for (const Judgement& j : c.judgements)
          if (j.metric == metric::latency_ns)
            checks.push_back({run.started_at, argv[i], c.id, c.device_uuid, j, slowed});
    }
    const double factor = thresholds.resolve("", machine).noise_factor;
    std::map<std::string, int> count;
    std::vector<double> ratios;
    for (const Check& check : checks) {
      std::vector<double> prior;  // the history before it: the A/A checks of its case and GPU
      for (const Check& h : checks)
        if (!h.slowed && h.case_id == check.case_id && h.device == check.device &&
            (h.started_at < check.started_at || (exchange && h.file != check.file)))
          prior.push_back(h.latency.current_median);
      if (prior.size() > static_cast<std::size_t>(kHistoryNoiseWindow))
        prior.erase(prior.begin(), prior.end() - kHistoryNoiseWindow);
      const double recorded = check.latency.threshold_pct;
      double allowed = recorded;
      const auto kernel = check.case_id.substr(0, check.case_id.find('/'));
      const auto baseline = baselines.find(machine, kernel, check.case_id);
      const std::vector<double> own = baseline_medians(baseline, check.device);
      if (static_cast<int>(prior.size()) >= min_runs && own.size() >= 2) {
        allowed = std::min(recorded, tightened_pct(prior, own, check.latency.baseline_median, factor));
        ratios.push_back(allowed / recorded);
      }
      const char* kind = check.slowed ? "slowed" : "A/A";
      const bool past_then = check.latency.change_pct > recorded,
                 past_now = check.latency.change_pct > allowed;
      ++count[std::string(kind) + " checks"];
      count[std::string(kind) + " past the recorded allowance"] += past_then;
      count[std::string(kind) + " past the tightened one"] += past_now;
      if (check.slowed || past_now != past_then)
        std::printf("%s %s %.8s: %+.3f%%, recorded %.3f%%, tightened %.3f%%, %zu runs before it\n", kind,
                    check.case_id.c_str(), check.device.c_str(), check.latency.change_pct, recorded, allowed,
                    prior.size());
    }
    for (const auto& [what, n] : count) std::printf("%s: %d\n", what.c_str(), n);
    if (!ratios.empty())
      std::printf("tightened / recorded allowance: median %.2f over %zu checks with >= %d runs before them\n",
                  median(ratios), ratios.size(), min_runs);
  } catch (const Error& e) {
    std::fprintf(stderr, "history_tightening: %s\n", e.what());
    return 2;
  }
}
