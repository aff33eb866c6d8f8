#include "cli/context.h"

#include <cstdlib>
#include <filesystem>

namespace perfgate {

std::string Context::baselines_dir() const {
  if (const char* dir = std::getenv("PERFGATE_BASELINES_DIR"); dir && *dir) return dir;
  return project_dir + "/baselines";
}

std::string Context::thresholds_dir() const {
  const std::string own = project_dir + "/thresholds";
  if (installed_thresholds_dir.empty() || std::filesystem::is_directory(own)) return own;
  return installed_thresholds_dir;
}

}  // namespace perfgate
