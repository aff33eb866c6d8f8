#include "report/event_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/no_link.h"
#include "perfgate/error.h"
#include "perfgate/metric_names.h"
#include "perfgate/registry.h"

namespace perfgate {
namespace {

using nlohmann::ordered_json;

double median_of(const CaseResult& r, const char* metric) {
  const auto it = r.metrics.find(metric);
  return it == r.metrics.end() ? 0 : it->second.summary.median;
}

ordered_json common(const RunResult& run, const CaseResult& r, const char* type) {
  return {{"type", type}, {"run_id", run.run_id}, {"machine_id", run.fingerprint.machine_id},
          {"case", r.id}, {"kernel", r.kernel},   {"backend", r.backend}};
}

// The plan's dispatches with their geometry; a CPU case is one dispatch of the whole kernel.
std::vector<ordered_json> dispatch_events(const RunResult& run, const CaseResult& r,
                                          const DeviceLimits& limits) {
  std::vector<ordered_json> events;
  const KernelDef* kernel = find_kernel(r.kernel);
  if (r.backend != "vulkan" || !kernel) {
    ordered_json e = common(run, r, "dispatch");
    e["index"] = 0;
    e["stage"] = r.kernel;
    e["host_ns"] = median_of(r, metric::host_latency_ns);
    events.push_back(std::move(e));
    return events;
  }
  const VulkanPlan plan = kernel->vulkan_plan(r.params, limits);
  const double total_ns = median_of(r, metric::latency_ns);
  for (std::size_t i = 0; i < plan.dispatches.size(); ++i) {
    const Dispatch& d = plan.dispatches[i];
    ordered_json e = common(run, r, "dispatch");
    e["index"] = i;
    e["stage"] = d.stage.empty() ? d.shader : d.stage;
    e["shader"] = d.shader;
    e["groups"] = d.groups;
    // As the shader runs it (reflected from its SPIR-V); a literal local_size_x = 512 has no
    // specialization word to read it from.
    if (i < r.local_sizes.size()) e["local_size"] = r.local_sizes[i];
    // The driver's own account of the compiled shader (registers, spills), where it gives one.
    if (i < r.shader_statistics.size() && !r.shader_statistics[i].empty()) {
      ordered_json statistics = ordered_json::object();
      for (const ShaderStatistic& s : r.shader_statistics[i]) statistics[s.name] = s.value;
      e["shader_statistics"] = std::move(statistics);
    }
    // Per-stage GPU time where the plan has stages, else the whole (one-dispatch) plan's.
    e["gpu_ns"] = i < r.stages.size() ? r.stages[i].latency_ns : plan.dispatches.size() == 1 ? total_ns : 0.0;
    e["host_encode_ns"] = r.encode_ns;
    events.push_back(std::move(e));
  }
  return events;
}

}  // namespace

EventStream::EventStream(const std::filesystem::path& file) : file_(file) {
  fd_ = open_no_link(file, O_WRONLY | O_APPEND | O_CREAT, 0644, "--events");
}

EventStream::~EventStream() {
  if (fd_ >= 0) ::close(fd_);
}

void EventStream::append(const std::string& line) {
  // One write per line with O_APPEND: the checks sharing a stream never interleave inside a line.
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error("cannot write the event stream " + file_.string() + ": " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

void EventStream::write_case(const RunResult& run, const CaseResult& result, const DeviceLimits& limits) {
  if (result.verdict != Verdict::error && result.verdict != Verdict::skipped)
    for (const ordered_json& e : dispatch_events(run, result, limits)) append(e.dump() + '\n');
  ordered_json e = common(run, result, "case");
  e["verdict"] = to_string(result.verdict);
  e["measurements"] = result.measurements;
  ordered_json medians = ordered_json::object();
  for (const auto& [name, metric] : result.metrics) medians[name] = metric.summary.median;
  e["medians"] = medians;
  if (!result.message.empty()) e["message"] = result.message;
  append(e.dump() + '\n');  // unbuffered: readers follow the file while the run goes on
}

}  // namespace perfgate
