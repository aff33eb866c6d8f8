#include "report/trace_printer.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

using json = nlohmann::ordered_json;

// One process (the device) with three tracks; times in the format's microseconds.
constexpr int kPid = 1;
constexpr int kQueueTid = 1, kHostTid = 2, kCaseTid = 3;
constexpr std::size_t kMaxDispatchesPerCase = 400;  // enough to see the spread, small enough to open

json metadata(const char* what, int tid, const std::string& name, int sort_index) {
  json args = {{"name", name}};
  json e = {{"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"name", what}, {"args", args}};
  if (sort_index >= 0) {
    json order = {{"ph", "M"},
                  {"pid", kPid},
                  {"tid", tid},
                  {"name", "thread_sort_index"},
                  {"args", {{"sort_index", sort_index}}}};
    return json::array({e, order});
  }
  return json::array({e});
}

json slice(int tid, const std::string& name, const char* category, double start_us, double duration_us,
           json args = json::object()) {
  return {{"ph", "X"},       {"pid", kPid},    {"tid", tid},         {"name", name},
          {"cat", category}, {"ts", start_us}, {"dur", duration_us}, {"args", std::move(args)}};
}

const std::vector<double>* samples_of(const CaseResult& c, const char* metric) {
  const Metric* m = find_metric(c, metric);
  return m && !m->samples.empty() ? &m->samples : nullptr;
}

}  // namespace

std::string render_chrome_trace(const RunResult& run) {
  json events = json::array();
  const std::string device =
      run.fingerprint.device_name.empty() ? run.fingerprint.machine_id : run.fingerprint.device_name;
  for (json e : metadata("process_name", kQueueTid, device + " (" + run.fingerprint.machine_id + ")", -1))
    events.push_back(std::move(e));
  const std::string queue = run.fingerprint.backend == "vulkan" ? "queue 0 (GPU)" : "CPU (all threads)";
  for (const auto& [tid, name] :
       {std::pair<int, std::string>{kCaseTid, "cases"}, {kQueueTid, queue}, {kHostTid, "host"}})
    for (json e : metadata("thread_name", tid, name, tid == kCaseTid ? 0 : tid))
      events.push_back(std::move(e));

  double now_us = 0;
  for (const CaseResult& c : run.cases) {
    const std::vector<double>* gpu = samples_of(c, metric::latency_ns);
    if (!gpu) continue;
    const std::vector<double>* host = samples_of(c, metric::host_latency_ns);
    const std::vector<double>* sm_clock = samples_of(c, metric::sm_clock_mhz);
    const std::vector<double>* memory_clock = samples_of(c, metric::memory_clock_mhz);
    const double encode_us = c.encode_ns / 1000;
    const std::size_t count = std::min(gpu->size(), kMaxDispatchesPerCase);
    const double case_start_us = now_us;
    for (std::size_t i = 0; i < count; ++i) {
      const double gpu_us = (*gpu)[i] / 1000;
      if (encode_us > 0)
        events.push_back(slice(kHostTid, "encode", "host", now_us, encode_us, {{"case", c.id}}));
      const double start_us = now_us + encode_us;
      events.push_back(slice(kQueueTid, c.kernel, "dispatch", start_us, gpu_us,
                             {{"case", c.id}, {"sample", i}, {"gpu_ns", (*gpu)[i]}}));
      double stage_us = start_us;
      for (const StageTiming& s : c.stages) {
        const double duration_us = gpu_us * s.pct_of_total / 100;
        events.push_back(slice(kQueueTid, s.name, "stage", stage_us, duration_us, {{"case", c.id}}));
        stage_us += duration_us;
      }
      if (sm_clock && i < sm_clock->size()) {
        json clocks = {{"sm_clock_mhz", (*sm_clock)[i]}};
        if (memory_clock && i < memory_clock->size()) clocks["memory_clock_mhz"] = (*memory_clock)[i];
        events.push_back(
            {{"ph", "C"}, {"pid", kPid}, {"name", "clocks"}, {"ts", start_us}, {"args", clocks}});
      }
      // The host's wall time per dispatch; past the GPU's, the queue waits for the host.
      const double host_us = host && i < host->size() ? (*host)[i] / 1000 : 0;
      now_us += std::max(encode_us + gpu_us, host_us);
    }
    json args = {{"verdict", std::string(to_string(c.verdict))}, {"dispatches", count}};
    if (const Judgement* j = main_judgement(c)) {
      args["judged_on"] = j->metric;
      args["change_pct"] = j->change_pct;
    }
    if (!c.calibration_reference.empty()) args["calibrated_against"] = c.calibration_reference;
    events.push_back(slice(kCaseTid, c.id, "case", case_start_us, now_us - case_start_us, std::move(args)));
    now_us += std::max(1.0, 0.05 * (now_us - case_start_us));  // cases apart: warm-up and checks sat here
  }
  json trace = {{"traceEvents", std::move(events)},
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
