#include "report/junit_printer.h"

#include <fmt/format.h>

#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"
#include "report/xml_escape.h"

namespace perfgate {
namespace {

std::string property(const std::string& name, const std::string& value) {
  return fmt::format("        <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name), xml_escape(value));
}

std::string number(double value) { return fmt::format("{:.6g}", value); }

// Time spent in the measured dispatches (the sum of the latency samples), in seconds.
double measured_seconds(const CaseResult& c) {
  double ns = 0;
  if (const Metric* m = find_metric(c, metric::latency_ns))
    for (double s : m->samples) ns += s;
  return ns / 1e9;
}

std::string testcase(const CaseResult& c, const std::string& machine_id) {
  // classname groups cases the way JUnit viewers group classes: kernel.backend.
  std::string out =
      fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.6f}\">\n", xml_escape(c.id),
                  xml_escape(c.kernel + "." + c.backend), measured_seconds(c));
  out += "      <properties>\n";
  out += property("verdict", std::string(to_string(c.verdict)));
  out += property("machine_id", machine_id);
  if (!c.bound.empty()) out += property("bound", c.bound);
  for (const auto& [name, metric] : c.metrics) {
    out += property(name + ".median", number(metric.summary.median));
    out += property(name + ".mad", number(metric.summary.mad));
    out += property(name + ".samples", std::to_string(metric.summary.count));
  }
  for (const auto& j : c.judgements) {
    out += property(j.metric + ".baseline_median", number(j.baseline_median));
    out += property(j.metric + ".change_pct", number(j.change_pct));
    out += property(j.metric + ".threshold_pct", number(j.threshold_pct));
    if (!j.threshold_source.empty()) out += property(j.metric + ".threshold_source", j.threshold_source);
    if (j.baseline_runs > 0) out += property(j.metric + ".noise_pct", number(j.noise_pct));
    if (j.unstable) out += property(j.metric + ".unstable", j.noise_note);
    out += property(j.metric + ".p_value", number(j.p_value));
    out += property(j.metric + ".verdict", std::string(to_string(j.verdict)));
  }
  out += "      </properties>\n";
  const std::string message = xml_escape(c.message.empty() ? std::string(to_string(c.verdict)) : c.message);
  switch (c.verdict) {
    case Verdict::regressed:
    case Verdict::error:
      out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", to_string(c.verdict),
                         message, xml_escape(c.check.empty() ? c.message : c.message + "\n" + c.check));
      break;
    case Verdict::skipped:
    case Verdict::no_baseline:
      out += fmt::format("      <skipped message=\"{}: {}\"/>\n", to_string(c.verdict), message);
      break;
    default:
      if (!c.message.empty()) out += "      <system-out>" + message + "</system-out>\n";
  }
  return out + "    </testcase>\n";
}

}  // namespace

std::string render_junit(const RunResult& run) {
  int failures = 0, skipped = 0;
  for (const auto& c : run.cases) {
    failures += c.verdict == Verdict::regressed || c.verdict == Verdict::error;
    skipped += c.verdict == Verdict::skipped || c.verdict == Verdict::no_baseline;
  }
  const std::string suite = "perfgate." + run.fingerprint.machine_id;
  std::string body;
  double seconds = 0;
  for (const CaseResult* c : worst_first(run)) {
    body += testcase(*c, run.fingerprint.machine_id);
    seconds += measured_seconds(*c);
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"perfgate\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
      "time=\"{:.6f}\">\n",
      run.cases.size(), failures, skipped, seconds);
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
      "time=\"{:.6f}\"{}>\n",
      xml_escape(suite), run.cases.size(), failures, skipped, seconds,
      run.started_at.empty() ? "" : " timestamp=\"" + xml_escape(run.started_at) + "\"");
  out += "    <properties>\n";
  for (const auto& [name, value] : {std::pair<const char*, const std::string&>{"run_id", run.run_id},
                                    {"commit", run.commit},
                                    {"branch", run.branch},
                                    {"machine_id", run.fingerprint.machine_id},
                                    {"device_name", run.fingerprint.device_name},
                                    {"driver_version", run.fingerprint.driver_version},
                                    {"perfgate_version", run.perfgate_version}})
    if (!value.empty()) out += property(name, value).substr(2);
  out += "    </properties>\n";
  return out + body + "  </testsuite>\n</testsuites>\n";
}

}  // namespace perfgate
