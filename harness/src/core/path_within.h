#pragma once
// Where a path lies relative to a folder, both resolved (symbolic links, "..", a trailing "/"):
// a candidate is never written into baselines/, and a baselines folder inside the project is
// named as the commit names it.
#include <algorithm>
#include <filesystem>
#include <optional>

namespace perfgate {

// `path` relative to `folder` where it lies inside it ("." for the folder itself), else nullopt.
inline std::optional<std::filesystem::path> path_within(const std::filesystem::path& path,
                                                        const std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  const auto resolved = [](const fs::path& p) {
    fs::path r = fs::weakly_canonical(fs::absolute(p));
    return r.filename().empty() ? r.parent_path() : r;
  };
  const fs::path f = resolved(path), d = resolved(folder);
  if (std::mismatch(d.begin(), d.end(), f.begin(), f.end()).first != d.end()) return std::nullopt;
  return f.lexically_relative(d);
}

}  // namespace perfgate
