#include "report/junit_printer.h"

#include <fmt/format.h>

#include "perfgate/metric_names.h"
#include "perfgate/run_summary.h"
#include "report/xml_escape.h"

namespace perfgate {
namespace {

std::string property(const std::string& name, const std::string& value) {
  return fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name), xml_escape(value));
}

// A case's figures as "name: value" lines: the Jenkins xUnit schema allows no <properties> in a
// <testcase> (and Jenkins reads them only with keepProperties); every viewer shows system-out.
std::string line(const std::string& name, const std::string& value) { return name + ": " + value + "\n"; }

// Seconds with at most 3 decimals: the schema's time pattern (SUREFIRE_TIME) allows no more.
std::string seconds_text(double seconds) { return fmt::format("{:.3f}", seconds); }

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
      fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{}\">\n", xml_escape(c.id),
                  xml_escape(c.kernel + "." + c.backend), seconds_text(measured_seconds(c)));
  std::string figures;
  if (!c.message.empty()) figures += c.message + "\n";
  figures += line("verdict", std::string(to_string(c.verdict)));
  figures += line("machine_id", machine_id);
  if (!c.bound.empty()) figures += line("bound", c.bound);
  for (const auto& [name, metric] : c.metrics) {
    figures += line(name + ".median", number(metric.summary.median));
    figures += line(name + ".mad", number(metric.summary.mad));
    figures += line(name + ".samples", std::to_string(metric.summary.count));
  }
  for (const auto& j : c.judgements) {
    figures += line(j.metric + ".baseline_median", number(j.baseline_median));
    figures += line(j.metric + ".change_pct", number(j.change_pct));
    figures += line(j.metric + ".threshold_pct", number(j.threshold_pct));
    if (!j.threshold_source.empty()) figures += line(j.metric + ".threshold_source", j.threshold_source);
    if (j.baseline_runs > 0) figures += line(j.metric + ".noise_pct", number(j.noise_pct));
    if (j.unstable) figures += line(j.metric + ".unstable", j.noise_note);
    figures += line(j.metric + ".p_value", number(j.p_value));
    figures += line(j.metric + ".verdict", std::string(to_string(j.verdict)));
  }
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
      break;
  }
  out += "      <system-out>" + xml_escape(figures) + "</system-out>\n";
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
  // <testsuites> takes no `skipped` in the schema; the suite carries it.
  out += fmt::format("<testsuites name=\"perfgate\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{}\">\n",
                     run.cases.size(), failures, seconds_text(seconds));
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
      "time=\"{}\"{}>\n",
      xml_escape(suite), run.cases.size(), failures, skipped, seconds_text(seconds),
      run.started_at.empty() ? "" : " timestamp=\"" + xml_escape(run.started_at) + "\"");
  out += "    <properties>\n";
  for (const auto& [name, value] : {std::pair<const char*, const std::string&>{"run_id", run.run_id},
                                    {"commit", run.commit},
                                    {"branch", run.branch},
                                    {"machine_id", run.fingerprint.machine_id},
                                    {"device_name", run.fingerprint.device_name},
                                    {"driver_version", run.fingerprint.driver_version},
                                    {"perfgate_version", run.perfgate_version}})
    if (!value.empty()) out += property(name, value);
  out += "    </properties>\n";
  return out + body + "  </testsuite>\n</testsuites>\n";
}

}  // namespace perfgate
