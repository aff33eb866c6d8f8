#include "cli/ab_check.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "cli/options.h"
#include "cli/serve_process.h"
#include "gate/gate.h"
#include "judge/confirmation.h"
#include "measure/measure_case.h"
#include "perfgate/error.h"
#include "stats/paired.h"
#include "stats/summary.h"
#include "store/ab_json.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// What each serve child's environment gets unless the user set it (both sides alike):
// - OMP_WAIT_POLICY=PASSIVE: libgomp's workers spin for milliseconds after a parallel region
//   before sleeping, keeping the cores busy while the other side is measured;
// - CPU cases also OMP_PROC_BIND=true, OMP_PLACES=threads: on a loaded 2-core runner the
//   scheduler may wake a worker on its master's core and leave it there for seconds (the
//   kernel then runs on one core), so the round ratios of one binary against itself drifted
//   to 0.25 or 5 for seconds at a time; bound threads gave 0.985..1.001 in six checks at
//   load 10. Not for Vulkan: threads created by the driver (llvmpipe's) would inherit the
//   initial thread's single place.
std::vector<std::string> serve_environment(Backend backend) {
  std::vector<std::string> defaults = {"OMP_WAIT_POLICY=PASSIVE"};
  if (backend == Backend::cpu) defaults.insert(defaults.end(), {"OMP_PROC_BIND=true", "OMP_PLACES=threads"});
  return defaults;
}

// Thrown while talking to a side: becomes the case's verdict (skipped or error).
struct SideFailure {
  Verdict verdict;
  std::string message;
};

// One build's `perfgate serve` child and what it announced.
class Side {
 public:
  Side(std::string label, std::string binary, const std::vector<std::string>& arguments, Backend backend)
      : label_(std::move(label)),
        binary_(std::move(binary)),
        process_(binary_, arguments, serve_environment(backend)) {}

  const std::string& label() const { return label_; }

  // Reads the first line: ready, skipped or error.
  void await_ready() {
    const std::string line = next_line("start");
    if (line.starts_with("ready ")) {
      nlohmann::json ready;
      try {
        ready = nlohmann::json::parse(line.substr(6));
        case_id_ = ready.at("case").get<std::string>();
        build_ = ab_build_from_json(ready.at("build"));
        check_ = ready.value("check", "");
      } catch (const nlohmann::json::exception& e) {
        throw SideFailure{Verdict::error,
                          label_ + " build (" + binary_ + "): unreadable ready line: " + e.what()};
      }
      build_.binary = binary_;
      return;
    }
    if (line.starts_with("skipped "))
      throw SideFailure{Verdict::skipped, label_ + " build (" + binary_ + "): " + line.substr(8)};
    throw SideFailure{Verdict::error, label_ + " build (" + binary_ + "): " + strip_error(line)};
  }

  // Warms up; the dispatches per batch this build needs to last batch_min_time_ms.
  int warm(const SamplingSettings& s) {
    process_.send(fmt::format("warm {} {} {}", s.batch_min_time_ms, s.warmup_s, s.timeout_s));
    const std::string line = next_line("warm-up");
    int dispatches = 0;
    if (!line.starts_with("warm ") || (dispatches = std::atoi(line.c_str() + 5)) < 1)
      throw SideFailure{Verdict::error, label_ + " build: " + strip_error(line)};
    return dispatches;
  }

  // `batches` samples of `dispatches` each, per dispatch; also kept with every sample taken.
  std::vector<double> sample(int batches, int dispatches) {
    process_.send("sample " + std::to_string(batches) + " " + std::to_string(dispatches));
    const std::string line = next_line("sampling");
    if (!line.starts_with("samples"))
      throw SideFailure{Verdict::error, label_ + " build: " + strip_error(line)};
    std::istringstream in(line.substr(7));
    std::vector<double> ns;
    for (double v; in >> v;) ns.push_back(v);
    if (ns.size() != static_cast<std::size_t>(batches))
      throw SideFailure{Verdict::error, label_ + " build: expected " + std::to_string(batches) +
                                            " samples, got '" + line + "'"};
    all_.insert(all_.end(), ns.begin(), ns.end());
    return ns;
  }

  void quit() {
    process_.send("quit");
    process_.finish();
  }

  const std::string& case_id() const { return case_id_; }
  AbBuild build() const {
    AbBuild b = build_;
    b.latency_ns = all_.empty() ? 0 : median(all_);
    return b;
  }
  const std::string& check() const { return check_; }
  const std::vector<double>& all_samples() const { return all_; }

 private:
  static std::string strip_error(const std::string& line) {
    return line.starts_with("error ") ? line.substr(6) : "unexpected answer '" + line + "'";
  }

  std::string next_line(const char* during) {
    std::string line;
    if (process_.read_line(line)) return line;
    const int code = process_.finish();
    if (during == std::string("start") && label_ == "base")
      // An older perfgate has no `serve`: CLI11 refuses it before printing anything.
      throw SideFailure{Verdict::skipped, "base build (" + binary_ + ") exited " + std::to_string(code) +
                                              " before answering: it predates A/B checks (perfgate serve), "
                                              "or could not start (its errors are above)"};
    throw SideFailure{Verdict::error, label_ + " build (" + binary_ + ") exited " + std::to_string(code) +
                                          " during " + during};
  }

  std::string label_;
  std::string binary_;
  ServeProcess process_;
  std::string case_id_;
  AbBuild build_;
  std::string check_;
  std::vector<double> all_;
};

std::string this_executable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find this program's path: " + ec.message());
  return self.string();
}

// Whether the rounds so far settle the verdict: significant either way, or confidently within
// the allowance. Otherwise more rounds, up to the bounds.
bool settled(const PairedJudgement& j, double allowed_pct) {
  if (j.verdict == Verdict::regressed || j.verdict == Verdict::improved) return true;
  const double worse = 1 + allowed_pct / 100;
  return j.verdict == Verdict::pass && j.interval.low > 1 / worse && j.interval.high < worse;
}

std::string describe(const PairedJudgement& j, double allowed_pct) {
  return fmt::format("head/base median ratio {:.3f} [{:.3f}, {}] over {} rounds, allowed ±{:g}% (p = {:.2g})",
                     j.median_ratio, j.interval.low,
                     std::isfinite(j.interval.high) ? fmt::format("{:.3f}", j.interval.high) : "inf",
                     j.rounds, allowed_pct, j.p_value);
}

}  // namespace

std::string resolve_base_binary(const std::string& path, const std::string& executable_name) {
  std::error_code ec;
  fs::path candidate = path;
  if (fs::is_directory(candidate, ec)) {
    candidate /= executable_name;
    if (!fs::exists(candidate, ec)) candidate = fs::path(path) / "perfgate";
  }
  if (!fs::is_regular_file(candidate, ec) || ::access(candidate.c_str(), X_OK) != 0)
    throw located_error(path, 0, "--base",
                        "no perfgate executable there (give the base build's binary or its build folder)");
  return fs::absolute(candidate).string();
}

namespace {

// One A/B measurement by one pair of serve children, judged; `confirm` is how many fresh pairs
// the case's thresholds want before a regression stands.
struct PairRun {
  CaseResult result;
  int confirm = 0;
};

PairRun measure_pair(const CaseSpec& spec, const AbSettings& settings, const ThresholdSet& threshold_set,
                     std::uint64_t seed) {
  PairRun run;
  CaseResult& result = run.result;
  result.id = spec.id;
  result.kernel = spec.kernel->name();
  result.backend = std::string(to_string(spec.backend));
  result.params = spec.params;
  result.cost = spec.kernel->cost_of(spec.params);
  std::vector<std::string> arguments = {"serve", spec.id, "--seed", std::to_string(seed)};
  if (!settings.device.empty()) arguments.insert(arguments.end(), {"--device", settings.device});
  try {
    // Both children are started before either prepares, then each is waited for in turn.
    Side base("base", settings.base_binary, arguments, spec.backend);
    Side head("head", this_executable(), arguments, spec.backend);
    head.await_ready();
    base.await_ready();
    if (base.case_id() != head.case_id())
      throw SideFailure{Verdict::error,
                        "base build names the case " + base.case_id() + ", head " + head.case_id()};
    const Fingerprint& machine = head.build().fingerprint;
    if (base.build().fingerprint.machine_id != machine.machine_id)
      throw SideFailure{Verdict::error, "base build runs on " + base.build().fingerprint.machine_id +
                                            ", head on " + machine.machine_id + ": not the same device"};
    const Thresholds t = threshold_set.resolve(spec.id, machine.machine_id);
    run.confirm = t.confirm;
    // The same batch on both sides, long enough for the faster one.
    const int dispatches = std::max(base.warm(t.sampling), head.warm(t.sampling));

    std::mt19937_64 order(seed);
    std::vector<double> ratios;
    PairedJudgement judged;
    const auto start = std::chrono::steady_clock::now();
    for (int round = 0; round < t.ab_max_rounds; ++round) {
      Side* sides[2] = {&base, &head};
      if (order() & 1) std::swap(sides[0], sides[1]);
      double median_ns[2] = {0, 0};
      for (Side* side : sides)
        median_ns[side == &head] = median(side->sample(t.ab_samples_per_round, dispatches));
      if (median_ns[0] > 0) ratios.push_back(median_ns[1] / median_ns[0]);
      const double spent_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (spent_s >= t.sampling.timeout_s) break;
      if (static_cast<int>(ratios.size()) < t.ab_min_rounds || spent_s < t.ab_min_time_s) continue;
      judged = judge_paired(ratios, t.ab_max_regression_pct, t.significance);
      if (settled(judged, t.ab_max_regression_pct)) break;
    }
    judged = judge_paired(ratios, t.ab_max_regression_pct, t.significance);
    base.quit();
    head.quit();

    AbComparison ab;
    ab.base = base.build();
    ab.head = head.build();
    ab.rounds = static_cast<int>(judged.rounds);
    ab.median_ratio = judged.median_ratio;
    ab.interval_low = judged.interval.low;
    ab.interval_high = judged.interval.high;
    ab.p_value = judged.p_value;
    ab.max_regression_pct = t.ab_max_regression_pct;
    ab.ratios = ratios;

    result.source_hash = ab.head.source_hash;
    result.check = head.check();
    Metric latency;
    latency.samples = head.all_samples();
    latency.summary = summarize(latency.samples);
    result.metrics["latency_ns"] = latency;
    derive_metrics(result, Peaks{});
    Judgement j;
    j.metric = "latency_ns";
    j.baseline_median = ab.base.latency_ns;
    j.current_median = ab.head.latency_ns;
    j.change_pct = (judged.median_ratio - 1) * 100;
    j.threshold_pct = t.ab_max_regression_pct;
    j.p_value = judged.p_value;
    j.verdict = judged.verdict;
    j.reason = describe(judged, t.ab_max_regression_pct);
    result.judgements = {j};
    result.verdict = judged.verdict;
    result.message = "A/B: " + j.reason;
    if (ab.base.source_hash == ab.head.source_hash) result.message += " (same kernel source in both builds)";
    result.ab = std::move(ab);
  } catch (const SideFailure& f) {
    result.verdict = f.verdict;
    result.message = f.message;
  } catch (const std::exception& e) {
    result.verdict = Verdict::error;
    result.message = std::string("A/B check: ") + e.what();
  }
  return run;
}

}  // namespace

// A regression stands only when fresh pairs of processes, each judged alone, regress too: a pair
// can carry a bias of its own for its whole life (on llvmpipe one A/A pair in 40 measured 1.079
// steadily), which more rounds of the same pair cannot remove.
CaseResult ab_check(const CaseSpec& spec, const AbSettings& settings, const ThresholdSet& threshold_set) {
  const std::uint64_t seed = CommonOptions{.seed = settings.seed}.input_seed();
  PairRun first = measure_pair(spec, settings, threshold_set, seed);
  if (!needs_confirmation(first.result)) return std::move(first.result);
  std::vector<CaseResult> fresh;
  for (int again = 0; again < first.confirm; ++again) {
    fresh.push_back(measure_pair(spec, settings, threshold_set, seed + 101 + again).result);
    if (fresh.back().verdict != Verdict::regressed) break;
  }
  apply_confirmations(first.result, fresh, "fresh process pair");
  return std::move(first.result);
}

}  // namespace perfgate
