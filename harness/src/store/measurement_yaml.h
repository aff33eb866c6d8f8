#pragma once
// The parts that baseline files and candidate files share: the fingerprint a case was measured
// on, and its samples per metric and run. Each run's samples go on one line (flow style), so a
// pull request that approves new numbers shows one changed line per run.
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "perfgate/result.h"
#include "store/yaml_document.h"

namespace perfgate {

// metric name -> runs -> samples
using MetricRuns = std::map<std::string, std::vector<std::vector<double>>>;

void emit_fingerprint(YAML::Emitter& out, const Fingerprint& fingerprint);
Fingerprint read_fingerprint(const YamlDocument& in, const YAML::Node& map, const std::string& at);

// A case's `bound` (CaseResult::bound: memory, compute or latency; it chooses a floor, so any
// other value is an error naming the file and line). Empty where the file has none.
std::string read_bound(const YamlDocument& in, const YAML::Node& map, const std::string& at);

// A case's `cpu_wait_share` (BaselineCase::cpu_wait_share): a number, 0 or more, else an error
// naming the file and line. 0 where the file has none.
double read_cpu_wait_share(const YamlDocument& in, const YAML::Node& map, const std::string& at);

// `run_devices` (BaselineCase::run_devices, Candidate::run_devices): a list of device uuids, each
// non-empty text, else an error naming the file and line.
std::vector<std::string> read_run_devices(const YamlDocument& in, const YAML::Node& list, const std::string& at);

// `periods` (BaselineCase::periods, Candidate::periods): a whole number from 1 to the runs it
// counts, else an error naming the file and line. 1 where the file has none.
int read_periods(const YamlDocument& in, const YAML::Node& map, const std::string& at, std::size_t runs);

void emit_runs(YAML::Emitter& out, const MetricRuns& runs);
// At least one metric, each with at least one run of at least one sample, each a measurement
// (store/sample_limits.h: never negative, a time never 0).
MetricRuns read_runs(const YamlDocument& in, const YAML::Node& map, const std::string& at);

}  // namespace perfgate
