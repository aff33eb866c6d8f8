#include "notify/fleet_alert.h"

#include <algorithm>
#include <string>

#include "notify/payload_generic.h"
#include "notify/payload_slack.h"
#include "perfgate/run_summary.h"

namespace perfgate {

RunResult combined_run(const std::vector<DeviceRun>& devices) {
  RunResult combined;
  std::vector<std::string> run_ids;
  for (const DeviceRun& device : devices) {
    const RunResult& run = device.run;
    if (combined.perfgate_version.empty()) combined.perfgate_version = run.perfgate_version;
    if (combined.commit.empty()) combined.commit = run.commit;
    if (combined.branch.empty()) combined.branch = run.branch;
    if (combined.started_at.empty() || (!run.started_at.empty() && run.started_at < combined.started_at))
      combined.started_at = run.started_at;
    combined.fingerprint.machine_id += (combined.fingerprint.machine_id.empty() ? "" : ", ") + device.label;
    run_ids.push_back(run.run_id);
    for (CaseResult c : run.cases) {
      c.id = device.label + ": " + c.id;
      combined.cases.push_back(std::move(c));
    }
  }
  std::sort(run_ids.begin(), run_ids.end());
  for (const auto& id : run_ids) combined.run_id += (combined.run_id.empty() ? "" : "+") + id;
  return combined;
}

bool should_send(const std::vector<DeviceRun>& devices, SendPolicy policy) {
  return std::any_of(devices.begin(), devices.end(),
                     [&](const DeviceRun& device) { return should_send(device.run, policy); });
}

Alert make_fleet_alert(const std::vector<DeviceRun>& devices, const CiContext& ci, PayloadFormat format,
                       std::int64_t now_unix_ms) {
  const RunResult combined = combined_run(devices);
  Alert alert;
  alert.id = alert_id(combined.run_id);
  alert.run_id = combined.run_id;
  alert.created_at_ms = now_unix_ms;
  const RunContext context = run_context(combined, ci);
  if (format == PayloadFormat::slack) {
    alert.body = slack_payload(combined, context).dump();
    return alert;
  }
  const RunSummary summary = summarize_run(combined);
  nlohmann::json counts = {{"cases", summary.cases}};
  for (const auto& [verdict, n] : summary.counts) counts[std::string(to_string(verdict))] = n;
  nlohmann::json machines = nlohmann::json::array();
  for (const DeviceRun& device : devices) {
    nlohmann::json one = generic_payload(device.run, run_context(device.run, ci), alert.id);
    one.erase("schema");
    one.erase("id");
    machines.push_back(std::move(one));
  }
  alert.body = nlohmann::json{
      {"schema", kFleetSchema},
      {"id", alert.id},
      {"status", to_string(summary.worst)},
      {"run",
       {{"id", combined.run_id},
        {"commit", context.commit},
        {"branch", context.branch},
        {"ci_url", context.ci_url},
        {"perfgate_version", combined.perfgate_version}}},
      {"summary", counts},
      {"machines",
       machines}}.dump();
  return alert;
}

}  // namespace perfgate
