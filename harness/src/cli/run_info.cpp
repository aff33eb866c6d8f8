#include "cli/run_info.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "cli/shell_command.h"
#include "core/sysinfo.h"
#include "core/utc_time.h"

namespace perfgate {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// The first line git prints for `args` in `dir` ("" where git fails): no shell, so a folder's
// name is never read as shell code, and git gets the environment children get (no secrets).
std::string git_line(const std::string& dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", dir});
  std::string out = capture_command(args, dir.empty() ? "." : dir).stdout_text;
  out = out.substr(0, out.find('\n'));
  while (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

}  // namespace

std::string utc_now_iso8601() { return utc_time_text(std::time(nullptr)); }

std::string source_commit(const std::string& project_dir) {
  for (const char* name : {"PERFGATE_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA"})
    if (std::string v = env(name); !v.empty()) return v;
  return git_line(project_dir, {"rev-parse", "HEAD"});
}

static std::string source_branch(const std::string& project_dir) {
  for (const char* name : {"PERFGATE_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"})
    if (std::string v = env(name); !v.empty()) return v;
  return git_line(project_dir, {"rev-parse", "--abbrev-ref", "HEAD"});
}

RunResult new_run(const Fingerprint& fingerprint, const std::string& project_dir) {
  RunResult run;
  run.perfgate_version = perfgate_version();
  run.started_at = utc_now_iso8601();
  std::random_device rd;
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "%08x", rd());
  run.run_id = run.started_at + "-" + suffix;
  run.commit = source_commit(project_dir);
  run.branch = source_branch(project_dir);
  run.fingerprint = fingerprint;
  return run;
}

}  // namespace perfgate
