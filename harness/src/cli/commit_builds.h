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
// executable's name) are replaced, each path quoted for the shell: a placeholder inside quotes
// in the template is refused (a path holding `$(...)` would run inside "...").
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

// The builds of one set of templates, apart from every other set's: a kept binary, a failed
// build and the configured build folder belong to the templates that made them, so a bisect
// given other templates builds again rather than take a binary the old ones built.
// Layout: <work>/builds/<key>/{build,bin/<sha>/<target>,logs/<sha>.log,logs/<sha>.failed,configured}
// with <key> the first 12 hex digits of the templates' and target's digest (templates_key).
std::string templates_key(const BuildTemplates& templates, const std::string& target);

class CommitBuilds {
 public:
  // Throws Error where a template holds a placeholder inside quotes.
  CommitBuilds(const GitRange& git, std::filesystem::path work_dir, BuildTemplates templates,
               std::string target);
  // The commit's binary: kept from before, prebuilt, or checked out and built now.
  CommitBuild get(const std::string& sha);
  std::filesystem::path worktree() const { return work_dir_ / "tree"; }
  std::filesystem::path builds_dir() const { return builds_dir_; }  // this set of templates' own

 private:
  std::string expand(const std::string& text, const std::string& sha, bool for_shell) const;

  const GitRange& git_;
  std::filesystem::path work_dir_;
  std::filesystem::path builds_dir_;
  BuildTemplates templates_;
  std::string target_;
};

}  // namespace perfgate
