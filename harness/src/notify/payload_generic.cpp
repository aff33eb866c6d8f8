#include "notify/payload_generic.h"

#include <cmath>

#include "core/resolution.h"
#include "judge/verdict.h"
#include "perfgate/run_summary.h"
#include "stats/geometric_mean.h"
#include "store/result_json.h"

namespace perfgate {

using nlohmann::json;

json generic_payload(const RunResult& run, const RunContext& context, const std::string& alert_id) {
  json summary = {{"cases", run.cases.size()}, {"resolution", run_resolution(run)}};
  for (const auto& [verdict, count] : summarize_run(run).counts)
    summary[std::string(to_string(verdict))] = count;
  summary["geomean"] = nullptr;
  if (const auto g = run_geometric_mean(run))
    summary["geomean"] = {{"latency_ratio", g->ratio},
                          {"interval", {g->low, std::isfinite(g->high) ? json(g->high) : json(nullptr)}},
                          {"confidence", g->confidence},
                          {"cases", g->count}};

  json deltas = json::array();
  for (const auto& d : ordered_deltas(run))
    deltas.push_back({{"case", d.case_id},
                      {"metric", d.metric},
                      {"baseline", d.baseline},
                      {"current", d.current},
                      {"change_pct", d.change_pct},
                      {"threshold_pct", d.threshold_pct},
                      {"threshold_source", d.threshold_source},
                      {"floor", d.threshold_source == kAbsoluteFloor ? json(d.floor) : json(nullptr)},
                      {"verdict", to_string(d.verdict)},
                      {"reason", d.reason}});
  json failures = json::array();
  for (const CaseResult* c : failed_cases(run))
    failures.push_back({{"case", c->id}, {"verdict", to_string(c->verdict)}, {"message", c->message}});

  return {{"schema", kGenericSchema},
          {"id", alert_id},
          {"status", to_string(summarize_run(run).worst)},
          {"run",
           {{"id", run.run_id},
            {"started_at", run.started_at},
            {"commit", context.commit},
            {"branch", context.branch},
            {"ci_url", context.ci_url},
            {"perfgate_version", run.perfgate_version}}},
          {"machine", to_json(run.fingerprint)},
          {"summary", summary},
          {"deltas", deltas},
          {"failures", failures}};
}

}  // namespace perfgate
