#include "report/trace_printer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

using nlohmann::ordered_json;

// One process (the device) with three tracks; times in the format's microseconds.
constexpr int kPid = 1;
constexpr int kQueueTid = 1, kHostTid = 2, kCaseTid = 3;
constexpr std::size_t kMaxDispatchesPerCase = 400;  // enough to see the spread, small enough to open

ordered_json metadata(const char* what, int tid, const std::string& name, int sort_index) {
  ordered_json args = {{"name", name}};
  ordered_json e = {{"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"name", what}, {"args", args}};
  if (sort_index >= 0) {
    ordered_json order = {{"ph", "M"},
                          {"pid", kPid},
                          {"tid", tid},
                          {"name", "thread_sort_index"},
                          {"args", {{"sort_index", sort_index}}}};
    return ordered_json::array({e, order});
  }
  return ordered_json::array({e});
}

// Times are whole nanoseconds, written in the format's microseconds: a child's end and its
// parent's are then the same number, not two sums rounded apart.
ordered_json slice(int tid, const std::string& name, const char* category, std::int64_t start_ns,
                   std::int64_t duration_ns, ordered_json args = nullptr) {
  ordered_json e = {{"ph", "X"},
                    {"pid", kPid},
                    {"tid", tid},
                    {"name", name},
                    {"cat", category},
                    {"ts", double(start_ns) / 1000},
                    {"dur", double(duration_ns) / 1000}};
  if (!args.is_null()) e["args"] = std::move(args);  // speedscope prints args after the name
  return e;
}

const std::vector<double>* samples_of(const CaseResult& c, const char* metric) {
  const Metric* m = find_metric(c, metric);
  return m && !m->samples.empty() ? &m->samples : nullptr;
}

}  // namespace

std::string render_chrome_trace(const RunResult& run) {
  ordered_json events = ordered_json::array();
  const std::string device =
      run.fingerprint.device_name.empty() ? run.fingerprint.machine_id : run.fingerprint.device_name;
  for (ordered_json e :
       metadata("process_name", kQueueTid, device + " (" + run.fingerprint.machine_id + ")", -1))
    events.push_back(std::move(e));
  const std::string queue = run.fingerprint.backend == "vulkan" ? "queue 0 (GPU)" : "CPU (all threads)";
  for (const auto& [tid, name] :
       {std::pair<int, std::string>{kCaseTid, "cases"}, {kQueueTid, queue}, {kHostTid, "host"}})
    for (ordered_json e : metadata("thread_name", tid, name, tid == kCaseTid ? 0 : tid))
      events.push_back(std::move(e));

  // Slices of one track that touch (a stage's end and the next one's start) are kept 1 ns apart:
  // a viewer that meets an end and a begin at one instant may take the begin first and nest
  // everything after it.
  constexpr std::int64_t kApartNs = 1;
  auto ns = [](double value) { return std::int64_t(std::llround(value)); };
  std::int64_t now_ns = 0;
  for (const CaseResult& c : run.cases) {
    const std::vector<double>* gpu = samples_of(c, metric::latency_ns);
    if (!gpu) continue;
    const std::vector<double>* host = samples_of(c, metric::host_latency_ns);
    const std::vector<double>* sm_clock = samples_of(c, metric::sm_clock_mhz);
    const std::vector<double>* memory_clock = samples_of(c, metric::memory_clock_mhz);
    const std::int64_t encode_ns = ns(c.encode_ns);
    const std::size_t count = std::min(gpu->size(), kMaxDispatchesPerCase);
    const std::int64_t case_start_ns = now_ns;
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t gpu_ns = std::max<std::int64_t>(ns((*gpu)[i]), 1);
      if (encode_ns > 0) events.push_back(slice(kHostTid, "encode " + c.id, "host", now_ns, encode_ns));
      const std::int64_t start_ns = now_ns + encode_ns;
      events.push_back(slice(kQueueTid, c.id, "dispatch", start_ns, gpu_ns));
      std::int64_t stage_ns = start_ns;
      for (const StageTiming& s : c.stages) {
        const std::int64_t duration_ns =
            std::min(ns(gpu_ns * s.pct_of_total / 100), start_ns + gpu_ns - stage_ns) - kApartNs;
        if (duration_ns <= 0) continue;
        events.push_back(slice(kQueueTid, s.name, "stage", stage_ns, duration_ns));
        stage_ns += duration_ns + kApartNs;
      }
      if (sm_clock && i < sm_clock->size()) {
        ordered_json clocks = {{"sm_clock_mhz", (*sm_clock)[i]}};
        if (memory_clock && i < memory_clock->size()) clocks["memory_clock_mhz"] = (*memory_clock)[i];
        events.push_back({{"ph", "C"},
                          {"pid", kPid},
                          {"name", "clocks"},
                          {"ts", double(start_ns) / 1000},
                          {"args", clocks}});
      }
      // The host's wall time per dispatch; past the GPU's, the queue waits for the host.
      const std::int64_t host_ns = host && i < host->size() ? ns((*host)[i]) : 0;
      now_ns += std::max(encode_ns + gpu_ns, host_ns) + kApartNs;
    }
    ordered_json args = {{"verdict", std::string(to_string(c.verdict))}, {"dispatches", count}};
    if (const Judgement* j = main_judgement(c)) {
      args["judged_on"] = j->metric;
      args["change_pct"] = j->change_pct;
    }
    if (!c.calibration_reference.empty()) args["calibrated_against"] = c.calibration_reference;
    events.push_back(slice(kCaseTid, c.id, "case", case_start_ns, now_ns - case_start_ns, std::move(args)));
    // Cases apart, as warm-up and the correctness check kept them.
    now_ns += std::max<std::int64_t>(1000, (now_ns - case_start_ns) / 20);
  }
  ordered_json trace = {
      {"traceEvents", std::move(events)},
      {"displayTimeUnit", "ns"},
      {"otherData",
       {{"run_id", run.run_id},
        {"machine_id", run.fingerprint.machine_id},
        {"commit", run.commit},
        {"timeline",
         "laid out from the recorded samples in measurement order: one dispatch per hot sample "
         "(its GPU time per dispatch), stages in their measured proportions, host encode "
         "before each, idle where the host's time per dispatch exceeds the GPU's"}}}};
  return trace.dump(1) + "\n";
}

}  // namespace perfgate
