#include "judge/judge_case.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/cpu_wait.h"
#include "judge/device_level.h"
#include "judge/device_spread.h"
#include "judge/verdict.h"
#include "perfgate/metric_names.h"
#include "stats/check_spread.h"
#include "stats/metric_samples.h"
#include "stats/summary.h"

namespace perfgate {
namespace {

// Why a baseline may not be comparable, said once in the message rather than hidden.
std::string context_changes(const BaselineCase& baseline, const CaseResult& result,
                            const Fingerprint& current) {
  std::string note;
  if (!baseline.source_hash.empty() && baseline.source_hash != result.source_hash)
    note += "kernel source changed since the baseline; ";
  const Fingerprint& old = baseline.fingerprint;
  if (!old.driver_version.empty() && old.driver_version != current.driver_version)
    note += "driver " + old.driver_version + " -> " + current.driver_version + " since the baseline; ";
  if (!old.compiler.empty() && old.compiler != current.compiler)
    note += "compiler " + old.compiler + " -> " + current.compiler + " since the baseline; ";
  if (!note.empty()) note.resize(note.size() - 2);
  return note;
}

// A calibrated case (sampling.calibrate) judged against a calibrated baseline is judged on its
// time relative to the reference: the raw time and the rates derived from it moved with the
// whole machine, which is what calibration takes out, so they are reported (in the metrics) but
// not judged.
void drop_raw_when_calibrated(std::vector<Judgement>& judgements) {
  const bool calibrated = std::any_of(judgements.begin(), judgements.end(), [](const Judgement& j) {
    return j.metric == metric::relative_latency && j.baseline_median > 0;
  });
  if (!calibrated) return;
  std::erase_if(judgements, [](const Judgement& j) {
    return j.metric == metric::latency_ns || j.metric == metric::bandwidth_gbps || j.metric == metric::gflops;
  });
}

// Where the baseline was measured against where this check runs: another GPU of the model (its
// uuid), or another host (Fingerprint::host_id; a baseline approved before hosts were recorded
// names none). Where the host's cores keep the time (a CPU, llvmpipe: `host_clocked`) the host is
// what differs, whatever uuid the driver reports (llvmpipe's is the same on every host). Where none of the baseline's runs measured
// this one, its level is placed by its own runs in the history, or bounded (placed_level).
struct Origin {
  std::string source;  // "another device" | "another host"
  std::string where;   // "another device (2614b971...)", "another host (a1b2c3d4e5f6)", ...
};
std::optional<Origin> elsewhere(const BaselineCase& baseline, const Fingerprint& current, bool host_clocked) {
  const Fingerprint& then = baseline.fingerprint;
  if (!host_clocked && !then.device_uuid.empty() && !current.device_uuid.empty()) {
    // One GPU is one GPU whichever host it sits in (a merged baseline's runs name their GPU, not
    // their host).
    if (then.device_uuid == current.device_uuid) return std::nullopt;
    return Origin{"another device", "another device (" + then.device_uuid.substr(0, 8) + "...)"};
  }
  if (current.host_id.empty() || then.host_id == current.host_id) return std::nullopt;
  return Origin{"another host", then.host_id.empty() ? "a host it does not name" : "another host (" + then.host_id + ")"};
}

// The level a check on a device or host none of its baseline's runs measured is judged against
// (judge/device_level.h): placed by this one's own gated runs in the history at the baseline's
// kernel source, else bounded by the spread between the devices or hosts the baseline or the
// history measured (`across`), else by the default bound of its class.
Level placed_level(const BaselineCase& baseline, const Origin& origin, const std::string& metric,
                   const HistoryNoise* history, const Fingerprint& current, const std::optional<DeviceSpread>& across,
                   double noise_factor) {
  const bool device = origin.source == "another device";
  const std::string self = device ? "this GPU" : "this host";
  Level level;
  level.named_as = origin.source;
  const std::vector<const HistoryPoint*> runs =
      history ? offset_runs(history->own_runs, baseline, current.driver_version) : std::vector<const HistoryPoint*>{};
  if (auto offset = device_offset(runs, baseline, metric, self)) {
    level.source = "history runs";
    level.ratio = offset->ratio;
    level.bound_pct = offset->bound_pct;
    level.why = offset->why + "; more runs tighten it";
    return level;
  }
  const int missing = kOffsetRuns - static_cast<int>(runs.size());
  const std::string tightens =
      history ? fmt::format("{} more run{} of {} at the baseline's kernel source{} in the history place it", missing,
                            missing == 1 ? "" : "s", self, device ? " and this driver" : "")
              : fmt::format("judge with the history (--history): {} runs of {} at the baseline's kernel source place it",
                            kOffsetRuns, self);
  if (across) {
    level.source = "device spread";
    level.bound_pct = noise_factor * across->bound_pct;
    level.why = fmt::format("{:g} x {}, how far {} differ; {}", noise_factor, across->why,
                            device ? "GPUs of the model" : "hosts of the class", tightens);
    return level;
  }
  level.source = "default bound";
  level.bound_pct = device ? kDevicesOfModelBoundPct : kHostsOfClassBoundPct;
  level.why = fmt::format("its baseline was measured on {} of {}, and nothing has measured how far {} differ: "
                          "{:g}%, the default bound (docs/measuring.md); {}",
                          origin.where, current.machine_id, device ? "GPUs of the model" : "hosts of the class",
                          level.bound_pct, tightens);
  return level;
}

// A baseline of one period (one proposal: runs minutes apart) on a machine whose cores the host
// shares: how far the case's level moves between periods (a neighbour's load, a reboot, hours)
// is what its runs cannot show, and what the machine has not measured yet. Past the case's own
// allowance a change within kPeriodsOfHostBoundPct is named until this host's history
// (kHistoryNoiseRuns gated runs) or a merge of proposals from other periods has measured it;
// past that it is judged. A GPU's own clock is left to its runs: no neighbour shares it, and on
// one H200 after its own proposal 1 of 858 whole-suite A/A case checks moved past its allowance
// (docs/performance.md).
std::optional<Level> one_period(const BaselineCase& baseline, bool gpu_clock, const HistoryNoise* history) {
  const int runs = history ? history->runs : 0;
  if (gpu_clock || !periods_unmeasured(baseline, runs)) return std::nullopt;
  Level level;
  level.bound_pct = kPeriodsOfHostBoundPct;
  level.named_as = "one period";
  level.passes_within = true;
  level.why = fmt::format("its baseline's runs are one period's (one proposal) and this host's moves between periods "
                          "are not measured yet, past {:g}% (how far a shared host's level has been seen to move) "
                          "judged: judge with its history (--history, {} gated runs; {} so far), or `baseline merge` "
                          "a proposal of another period",
                          kPeriodsOfHostBoundPct, kHistoryNoiseRuns, runs);
  return level;
}

// The share of its baseline's time that latency_ns's min_change is: the finest change the timer
// resolves at all, which rates computed from that one time (bandwidth, GFLOP/s: work over the
// latency) cannot resolve finer. 0 where latency has no min_change or no baseline runs.
double time_resolution_pct(const BaselineCase& baseline, const Thresholds& thresholds) {
  const auto latency = thresholds.metrics.find(metric::latency_ns);
  const auto runs = baseline.runs.find(metric::latency_ns);
  if (latency == thresholds.metrics.end() || !latency->second.min_change || runs == baseline.runs.end() ||
      runs->second.empty())
    return 0;
  const double typical = median(pooled(runs->second));
  return typical > 0 ? 100 * *latency->second.min_change / typical : 0;
}

bool is_rate_of_latency(const std::string& metric) {
  return metric == metric::bandwidth_gbps || metric == metric::gflops;
}

// How far the rounds of the baseline's own runs spread (CheckSpread::pct, the median over its
// runs): 0 where it holds no such rounds. `raw`: the case's own times alone, as a raw-timed check
// measures them (check_spread_alone).
double baseline_spread_pct(const BaselineCase& baseline, bool raw) {
  auto runs = [&](const char* name) -> const std::vector<std::vector<double>>* {
    auto it = baseline.runs.find(name);
    return it == baseline.runs.end() ? nullptr : &it->second;
  };
  const auto *case_ns = runs(metric::latency_ns), *reference_ns = runs(metric::reference_latency_ns),
             *relative = runs(metric::relative_latency);
  if (!case_ns || (!raw && (!reference_ns || !relative))) return 0;
  const std::size_t count =
      raw ? case_ns->size() : std::min({case_ns->size(), reference_ns->size(), relative->size()});
  std::vector<double> spreads;
  for (std::size_t i = 0; i < count; ++i) {
    const CheckSpread s = raw ? check_spread_alone((*case_ns)[i])
                              : check_spread((*case_ns)[i], (*reference_ns)[i], (*relative)[i]);
    if (s.rounds > 0) spreads.push_back(s.pct());
  }
  return spreads.empty() ? 0 : median(spreads);
}

bool is_raw_time(const std::string& metric) {
  return metric == metric::latency_ns || metric == metric::bandwidth_gbps || metric == metric::gflops;
}

// What a check's rounds say about the machine while it ran (stats/check_spread.h): for a
// calibrated case's relative_latency the spread of the case's and the reference's times and of
// their ratio; for the raw time (and the rates derived from it) of a case timed alone, the spread
// of its own times. Both with how long its threads waited for a core beyond its baseline's runs.
// nullopt for any other metric, or where the result holds no such samples.
std::optional<CheckSpread> spread_of(const CaseResult& result, const BaselineCase& baseline,
                                     const std::string& metric) {
  auto samples = [&](const char* name) -> std::span<const double> {
    auto it = result.metrics.find(name);
    return it == result.metrics.end() ? std::span<const double>{}
                                      : std::span<const double>(it->second.samples);
  };
  const bool raw = is_raw_time(metric) && samples(metric::relative_latency).empty();
  if (metric != metric::relative_latency && !raw) return std::nullopt;
  CheckSpread spread = raw ? check_spread_alone(samples(metric::latency_ns))
                           : check_spread(samples(metric::latency_ns), samples(metric::reference_latency_ns),
                                          samples(metric::relative_latency));
  spread.cpu_wait_share = result.cpu_wait_share;
  spread.baseline_wait_share = baseline.cpu_wait_share;
  // Only a quiet baseline's rounds say what a quiet check's jitter is: a baseline measured while
  // the machine was busy (its threads waiting for cores, core/cpu_wait.h) spread as far as the
  // load made it, and beside a parallel build one spread 100%, which would have called a check
  // as loaded "no load" (docs/performance.md).
  if (baseline.cpu_wait_share < kBusyCpuWaitShare) spread.baseline_pct = baseline_spread_pct(baseline, raw);
  if (spread.rounds == 0) return std::nullopt;
  return spread;
}

}  // namespace

void judge_against(CaseResult& result, const std::optional<BaselineCase>& baseline,
                   const Thresholds& thresholds, const Fingerprint& current, const HistoryNoise* history) {
  result.judgements.clear();
  if (result.verdict == Verdict::error || result.verdict == Verdict::skipped) return;
  // Relative times against two references do not compare: a ratio to a stream and a ratio to a
  // multiply-add chain differ by whatever the two take, not by what the kernel did.
  if (baseline && !baseline->calibration_reference.empty() && !result.calibration_reference.empty() &&
      baseline->calibration_reference != result.calibration_reference) {
    result.verdict = Verdict::error;
    result.message = "calibrated against " + result.calibration_reference + ", its baseline against " +
                     baseline->calibration_reference + ": relative times against two references do not compare";
    return;
  }
  // A DRAM-sized case has its own floor where the thresholds give one (dram_min_allowed_pct), a
  // case bound by compute or latency its own too (compute_min_allowed_pct). The bound is the
  // baseline's where it recorded one: a slowdown lowers a case's share of its roof, and f16_matvec
  // m=k=2560 doing 10% more work read as compute-bound in 20 of 20 checks on the 2-core VM, which
  // the check's own bound would have allowed 50%.
  const std::string& bound = baseline && !baseline->bound.empty() ? baseline->bound : result.bound;
  // Whose clock kept the time: the baseline's runs are the noise judged, so theirs.
  const bool gpu_clock = baseline ? kept_by_gpu_clock(baseline->backend, baseline->calibration_reference)
                                  : kept_by_gpu_clock(result.backend, result.calibration_reference);
  const CaseShape shape{result.fits_in_cache, bound_by_memory(bound), gpu_clock};
  const bool host_clocked = baseline && !gpu_clock && !baseline->backend.empty();
  const std::optional<Origin> origin = baseline ? elsewhere(*baseline, current, host_clocked) : std::nullopt;
  result.baseline_origin = origin ? origin->where : "";
  const std::optional<Level> period = baseline && !origin ? one_period(*baseline, gpu_clock, history) : std::nullopt;
  const double time_resolution = baseline ? time_resolution_pct(*baseline, thresholds) : 0;
  for (const auto& [metric, given] : thresholds.metrics) {
    if (!given.judged()) continue;
    MetricThreshold threshold = given.for_case(shape);
    if (baseline) allow_pooled_spread(threshold, baseline->device_run_medians, metric, thresholds.noise_factor);
    // The machine's own record of the case's time, where its history holds one: for that time and
    // the rates of it (work over the same time), in place of the floors.
    const bool history_speaks =
        history && (metric == history->metric || metric == metric::latency_ns || is_rate_of_latency(metric));
    if (history_speaks && history->runs >= kHistoryNoiseRuns && threshold.relative()) {
      threshold.history_allowed_pct =
          history_allowed_pct(*history, thresholds.noise_factor, &threshold.history_why);
    }
    auto measured = result.metrics.find(metric);
    if (measured == result.metrics.end()) continue;
    const std::vector<std::vector<double>>* runs = nullptr;
    if (baseline) {
      auto it = baseline->runs.find(metric);
      if (it != baseline->runs.end() && !it->second.empty()) runs = &it->second;
    }
    if (runs && time_resolution > 0 && is_rate_of_latency(metric) && threshold.relative()) {
      // The rate's own min_change: the latency's, as the same share of the rate's median.
      const double resolved = std::abs(median(pooled(*runs))) * time_resolution / 100;
      threshold.min_change = std::max(threshold.min_change.value_or(0.0), resolved);
    }
    // Where the level judged against comes from, and how far this device's may lie from it. A
    // fixed allowance already stands for whatever the machine does between periods.
    Level level;
    if (runs && origin) {
      // The spread between the GPUs of the model (or hosts of the class) the baseline's runs
      // measured, else those the history's gated runs name (a CI lent any GPU of a pool, or a
      // fresh VM per job, appends each run).
      std::optional<DeviceSpread> across;
      if (origin->source == "another device") across = device_spread(*baseline, metric);
      if (!across && history_speaks && history->devices) across = history->devices;
      level = placed_level(*baseline, *origin, metric, history, current, across, thresholds.noise_factor);
    } else if (period && !threshold.max_regression_pct) {
      level = *period;
      result.baseline_origin = "one period of this host";
    }
    if (runs) {
      result.judgements.push_back(judge_metric(metric, measured->second.samples, *runs, threshold,
                                               thresholds.significance, thresholds.noise_factor, level,
                                               spread_of(result, *baseline, metric)));
    } else if (auto floor = judge_floor(metric, measured->second.samples, threshold)) {
      result.judgements.push_back(*floor);
    }
  }
  drop_raw_when_calibrated(result.judgements);
  if (!baseline) {
    bool floor_failed = false;
    for (const auto& j : result.judgements) floor_failed |= j.verdict == Verdict::regressed;
    result.verdict = floor_failed ? Verdict::regressed : Verdict::no_baseline;
    result.message = floor_failed ? "below an absolute floor (no baseline yet)"
                                  : "no approved baseline for " + current.machine_id;
    return;
  }
  result.verdict = combine(result.judgements);
  std::string worst;
  for (const auto& j : result.judgements)
    if (j.verdict == result.verdict && worst.empty()) worst = j.metric + ": " + j.reason;
  result.message = worst;
  if (std::string note = context_changes(*baseline, result, current); !note.empty())
    result.message += (result.message.empty() ? "" : " (") + note + (result.message.empty() ? "" : ")");
}

double least_allowance_pct(const BaselineCase& baseline, const Thresholds& thresholds) {
  double least = 0;
  for (const auto& [metric, given] : thresholds.metrics) {
    if (given.has_floor()) return 0;
    if (!given.relative()) continue;
    auto runs = baseline.runs.find(metric);
    if (runs == baseline.runs.end() || runs->second.empty()) continue;
    for (bool fits_in_cache : {true, false}) {
      MetricThreshold threshold = given.for_case(
          {fits_in_cache, bound_by_memory(baseline.bound),
           kept_by_gpu_clock(baseline.backend, baseline.calibration_reference)});
      allow_pooled_spread(threshold, baseline.device_run_medians, metric, thresholds.noise_factor);
      const RunNoise noise = run_noise(runs->second, threshold.min_allowed_pct.value_or(0), thresholds.noise_factor,
                                       threshold.leave_odd_run_out);
      const double pct = allowed_regression(noise, threshold, thresholds.noise_factor).pct;
      least = least == 0 ? pct : std::min(least, pct);
    }
  }
  return least;
}

BaselineCase runs_of_device(const BaselineCase& baseline, const std::string& device_uuid) {
  const auto latency = baseline.runs.find(metric::latency_ns);
  if (baseline.run_devices.empty() || device_uuid.empty() || latency == baseline.runs.end() ||
      latency->second.size() != baseline.run_devices.size())
    return baseline;
  const std::size_t count = baseline.run_devices.size();
  std::vector<bool> mine(count);
  for (std::size_t i = 0; i < count; ++i) mine[i] = baseline.run_devices[i] == device_uuid;
  if (std::find(mine.begin(), mine.end(), true) == mine.end()) return baseline;
  BaselineCase own = baseline;
  own.fingerprint.device_uuid = device_uuid;
  own.run_devices.clear();
  for (auto& [metric, runs] : own.runs) {
    // A metric some runs left out (cold latency) cannot be told apart by device: kept whole.
    if (runs.size() != count) continue;
    own.device_run_medians[metric] = medians_by_device(runs, baseline.run_devices);
    std::vector<std::vector<double>> kept;
    for (std::size_t i = 0; i < count; ++i)
      if (mine[i]) kept.push_back(std::move(runs[i]));
    runs = std::move(kept);
  }
  return own;
}

}  // namespace perfgate
