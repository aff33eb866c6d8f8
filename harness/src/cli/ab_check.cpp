#include "cli/ab_check.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <vector>

#include "cli/serve_process.h"
#include "perfgate/error.h"
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

// One build's `perfgate serve` child and what it announced.
class ServeSide {
 public:
  ServeSide(std::string label, std::string binary, const std::vector<std::string>& arguments, Backend backend)
      : label_(std::move(label)),
        binary_(std::move(binary)),
        process_(binary_, arguments, serve_environment(backend)) {}

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
        throw PairFailure{Verdict::error,
                          label_ + " build (" + binary_ + "): unreadable ready line: " + e.what()};
      }
      build_.binary = binary_;
      return;
    }
    if (line.starts_with("skipped "))
      throw PairFailure{Verdict::skipped, label_ + " build (" + binary_ + "): " + line.substr(8)};
    throw PairFailure{Verdict::error, label_ + " build (" + binary_ + "): " + strip_error(line)};
  }

  // Warms up; the dispatches per batch this build needs to last batch_min_time_ms.
  int warm(const SamplingSettings& s) {
    process_.send(fmt::format("warm {} {} {}", s.batch_min_time_ms, s.warmup_s, s.timeout_s));
    const std::string line = next_line("warm-up");
    int dispatches = 0;
    if (!line.starts_with("warm ") || (dispatches = std::atoi(line.c_str() + 5)) < 1)
      throw PairFailure{Verdict::error, label_ + " build: " + strip_error(line)};
    return dispatches;
  }

  // `batches` samples of `dispatches` each, per dispatch.
  std::vector<double> sample(int batches, int dispatches) {
    process_.send("sample " + std::to_string(batches) + " " + std::to_string(dispatches));
    const std::string line = next_line("sampling");
    if (!line.starts_with("samples"))
      throw PairFailure{Verdict::error, label_ + " build: " + strip_error(line)};
    std::istringstream in(line.substr(7));
    std::vector<double> ns;
    for (double v; in >> v;) ns.push_back(v);
    if (ns.size() != static_cast<std::size_t>(batches))
      throw PairFailure{Verdict::error, label_ + " build: expected " + std::to_string(batches) +
                                            " samples, got '" + line + "'"};
    return ns;
  }

  void quit() {
    process_.send("quit");
    process_.finish();
  }

  const std::string& case_id() const { return case_id_; }
  const AbBuild& build() const { return build_; }
  const std::string& check() const { return check_; }

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
      throw PairFailure{Verdict::skipped, "base build (" + binary_ + ") exited " + std::to_string(code) +
                                              " before answering: it predates A/B checks (perfgate serve), "
                                              "or could not start (its errors are above)"};
    throw PairFailure{Verdict::error, label_ + " build (" + binary_ + ") exited " + std::to_string(code) +
                                          " during " + during};
  }

  std::string label_;
  std::string binary_;
  ServeProcess process_;
  std::string case_id_;
  AbBuild build_;
  std::string check_;
};

std::string this_executable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find this program's path: " + ec.message());
  return self.string();
}

// Both builds' serve children, stepped by the gate.
class ServePair : public AbPair {
 public:
  ServePair(const CaseSpec& spec, const AbSettings& settings, const std::vector<std::string>& arguments)
      : base_("base", settings.base_binary, arguments, spec.backend),
        head_("head", settings.head_binary.empty() ? this_executable() : settings.head_binary, arguments,
              spec.backend) {}

  // Both children are started before either prepares, then each is waited for in turn.
  void await_ready() {
    head_.await_ready();
    base_.await_ready();
    if (base_.case_id() != head_.case_id())
      throw PairFailure{Verdict::error,
                        "base build names the case " + base_.case_id() + ", head " + head_.case_id()};
    const std::string& machine = head_.build().fingerprint.machine_id;
    if (base_.build().fingerprint.machine_id != machine)
      throw PairFailure{Verdict::error, "base build runs on " + base_.build().fingerprint.machine_id +
                                            ", head on " + machine + ": not the same device"};
  }

  const AbBuild& build(Side side) const override { return of(side).build(); }
  const std::string& check() const override { return head_.check(); }
  int warm(Side side, const SamplingSettings& settings) override { return of(side).warm(settings); }
  std::vector<double> sample(Side side, int batches, int dispatches) override {
    return of(side).sample(batches, dispatches);
  }
  void finish() override {
    base_.quit();
    head_.quit();
  }

 private:
  ServeSide& of(Side side) { return side == Side::base ? base_ : head_; }
  const ServeSide& of(Side side) const { return side == Side::base ? base_ : head_; }

  ServeSide base_, head_;
};

}  // namespace

std::unique_ptr<AbPair> start_serve_pair(const CaseSpec& spec, const AbSettings& settings,
                                         std::uint64_t seed) {
  std::vector<std::string> arguments = {"serve", spec.id, "--seed", std::to_string(seed)};
  if (!settings.device.empty()) arguments.insert(arguments.end(), {"--device", settings.device});
  auto pair = std::make_unique<ServePair>(spec, settings, arguments);
  pair->await_ready();
  return pair;
}

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

}  // namespace perfgate
