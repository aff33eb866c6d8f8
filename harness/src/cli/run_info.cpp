#include "cli/run_info.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>

#include "core/sysinfo.h"

namespace perfgate {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string first_line_of(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    if (std::fgets(buffer, sizeof buffer, pipe)) out = buffer;
    pclose(pipe);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

std::string utc_now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string source_commit(const std::string& project_dir) {
  for (const char* name : {"PERFGATE_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA"})
    if (std::string v = env(name); !v.empty()) return v;
  return first_line_of("git -C '" + project_dir + "' rev-parse HEAD 2>/dev/null");
}

static std::string source_branch(const std::string& project_dir) {
  for (const char* name : {"PERFGATE_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"})
    if (std::string v = env(name); !v.empty()) return v;
  return first_line_of("git -C '" + project_dir + "' rev-parse --abbrev-ref HEAD 2>/dev/null");
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
