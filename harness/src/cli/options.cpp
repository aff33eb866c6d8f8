#include "cli/options.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <random>

namespace perfgate {

Selection CommonOptions::selection(std::vector<Backend> backends) const {
  Selection s;
  s.case_globs = cases;
  s.kernel_globs = kernel_globs;
  s.backends = std::move(backends);
  for (const auto& text : axes) {
    auto [name, values] = parse_axis_option(text);
    s.axes[name] = values;
  }
  return s;
}

std::filesystem::path CommonOptions::cache_path() const {
  if (!cache_dir.empty()) return cache_dir;
  if (const char* dir = std::getenv("PERFGATE_CACHE_DIR"); dir && *dir) return dir;
  if (const char* dir = std::getenv("XDG_CACHE_HOME"); dir && *dir)
    return std::filesystem::path(dir) / "perfgate";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache" / "perfgate";
  return std::filesystem::temp_directory_path() / "perfgate-cache";
}

std::uint64_t CommonOptions::input_seed() const {
  if (seed != 0) return seed;
  std::random_device rd;
  return (std::uint64_t(rd()) << 32) | rd();
}

bool CommonOptions::use_color() const {
  if (color == "always") return true;
  if (color == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

void add_selection_options(CLI::App& command, CommonOptions& o) {
  command.add_option("cases", o.cases, "Case globs (e.g. 'copy/cpu/*') or kernel names");
  command.add_option("--backend", o.backend, "cpu or vulkan (default: a Vulkan GPU, else the CPU)")
      ->check(CLI::IsMember({"cpu", "vulkan"}));
  // One glob per --kernel, repeatable; a value after it is a case glob again.
  command.add_option("--kernel", o.kernel_globs, "Kernel name glob, e.g. 'q4_0*' (repeatable: any of them)")
      ->allow_extra_args(false);
  command.add_option("--device", o.device, "Vulkan device: index or part of its name");
  command.add_option("--axis", o.axes, "Override an axis: NAME=V1,V2 or NAME=FIRST:LAST:xF (repeatable)")
      ->take_all();
}

void add_run_options(CLI::App& command, CommonOptions& o, const Context& context) {
  o.baselines_dir = context.baselines_dir();
  o.thresholds_dir = context.thresholds_dir();
  command.add_option("--json", o.json_file, "Write the run's results JSON to FILE");
  command.add_option("--baselines", o.baselines_dir, "Approved baselines folder")->capture_default_str();
  command.add_option("--thresholds", o.thresholds_dir, "Thresholds folder (YAML)")->capture_default_str();
  add_cache_dir_option(command, o);
  command.add_option("--seed", o.seed, "Seed of the random inputs (default: fresh each run)");
  command.add_flag("--quiet,-q", o.quiet, "Print only the table (no progress line)");
  command.add_option("--color", o.color, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

void add_cache_dir_option(CLI::App& command, CommonOptions& o) {
  command.add_option("--cache-dir", o.cache_dir, "Where measured device peaks are cached");
}

OpenedDevice open_backend(Backend backend, const std::string& selector) {
  try {
    return {open_device(backend, selector), ""};
  } catch (const NoDevice& e) {
    return {nullptr, e.reason};
  }
}

Backend best_backend(const std::string& selector) {
  OpenedDevice vk = open_backend(Backend::vulkan, selector);
  return vk.device && (vk.device->is_gpu() || !selector.empty()) ? Backend::vulkan : Backend::cpu;
}

}  // namespace perfgate
