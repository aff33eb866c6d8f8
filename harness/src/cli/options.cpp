#include "cli/options.h"

#include <unistd.h>

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
