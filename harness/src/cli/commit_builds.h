#pragma once
// `perfgate bisect`'s builds: each commit checked out in the bisect's own worktree and built by
// the user's command templates, its perfgate binary kept per commit, so a step can start any two
// at the same moment and a resumed bisect builds nothing twice. Prebuilt binaries (a CI's
// artifacts) stand in where the binary template names them and the build command is empty.
#include <filesystem>
#include <optional>
#include <string>

#include "cli/git_range.h"

namespace perfgate {

// Command templates; {source} (the worktree), {build} (the build folder), {sha}, {target} (this
// executable's name) are replaced, each path quoted for the shell.
struct BuildTemplates {
  std::string configure;  // run once per work folder; empty: none
  std::string build;      // run per commit; empty: the binary template names prebuilt binaries
  std::string binary;     // where a commit's perfgate binary is after its build
};
BuildTemplates default_build_templates();

struct CommitBuild {
  std::optional<std::string> binary;  // none: it did not build
  std::string failure;                // why not, with the log's path
  double build_s = 0;                 // 0 where it was built before (or prebuilt)
  bool fresh = false;                 // built (or tried) by this call
};

class CommitBuilds {
 public:
  CommitBuilds(const GitRange& git, std::filesystem::path work_dir, BuildTemplates templates,
               std::string target);
  // The commit's binary: kept from before, prebuilt, or checked out and built now.
  CommitBuild get(const std::string& sha);
  std::filesystem::path worktree() const { return work_dir_ / "tree"; }

 private:
  std::string expand(const std::string& text, const std::string& sha, bool for_shell) const;

  const GitRange& git_;
  std::filesystem::path work_dir_;
  BuildTemplates templates_;
  std::string target_;
};

}  // namespace perfgate
