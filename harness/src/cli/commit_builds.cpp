#include "cli/commit_builds.h"

#include <unistd.h>

#include <chrono>
#include <fstream>

#include "cli/shell_command.h"
#include "perfgate/error.h"
#include "report/next_steps.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

bool executable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

BuildTemplates default_build_templates() {
  return {"cmake -S {source} -B {build} -DCMAKE_BUILD_TYPE=Release",
          "cmake --build {build} --target {target}", "{build}/{target}"};
}

CommitBuilds::CommitBuilds(const GitRange& git, fs::path work_dir, BuildTemplates templates,
                           std::string target)
    : git_(git),
      work_dir_(std::move(work_dir)),
      templates_(std::move(templates)),
      target_(std::move(target)) {
  std::error_code ec;
  fs::create_directories(work_dir_ / "bin", ec);
  fs::create_directories(work_dir_ / "logs", ec);
  // {build} exists before any command runs: a build step that only copies a prebuilt binary
  // there (no configure to create it) works as one that compiles.
  if (!ec) fs::create_directories(work_dir_ / "build", ec);
  if (ec) throw Error("bisect: cannot create the work folder " + work_dir_.string() + ": " + ec.message());
}

std::string CommitBuilds::expand(const std::string& text, const std::string& sha, bool for_shell) const {
  const auto word = [for_shell](const std::string& w) { return for_shell ? shell_word(w) : w; };
  std::string out = text;
  replace_all(out, "{source}", word(worktree().string()));
  replace_all(out, "{build}", word((work_dir_ / "build").string()));
  replace_all(out, "{sha}", sha);
  replace_all(out, "{target}", word(target_));
  return out;
}

CommitBuild CommitBuilds::get(const std::string& sha) {
  CommitBuild result;
  const fs::path kept = work_dir_ / "bin" / sha / target_;
  const fs::path failed = work_dir_ / "logs" / (sha + ".failed");
  const fs::path log = work_dir_ / "logs" / (sha + ".log");
  if (executable(kept)) {
    result.binary = kept.string();
    return result;
  }
  if (templates_.build.empty()) {  // prebuilt: the template names each commit's binary
    const std::string binary = expand(templates_.binary, sha, false);
    if (executable(binary))
      result.binary = binary;
    else
      result.failure = "no prebuilt binary " + binary;
    return result;
  }
  std::error_code ec;
  if (fs::exists(failed, ec)) {
    result.failure = "does not build (log: " + log.string() + ")";
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  result.fresh = true;
  git_.check_out(worktree(), sha);
  const fs::path configured = work_dir_ / "configured";
  int code = 0;
  if (!templates_.configure.empty() && !fs::exists(configured, ec)) {
    code = run_shell_command(expand(templates_.configure, sha, true), worktree(), log);
    if (code == 0) std::ofstream(configured) << templates_.configure << "\n";
  }
  if (code == 0) code = run_shell_command(expand(templates_.build, sha, true), worktree(), log);
  const std::string binary = expand(templates_.binary, sha, false);
  result.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (code == 0 && !executable(binary)) code = -1;
  if (code != 0) {
    std::ofstream(failed) << code << "\n";
    result.failure = code == -1
                         ? "built, but no binary at " + binary + " (log: " + log.string() + ")"
                         : "does not build: exit " + std::to_string(code) + " (log: " + log.string() + ")";
    return result;
  }
  fs::create_directories(kept.parent_path(), ec);
  fs::copy_file(binary, kept, fs::copy_options::overwrite_existing, ec);
  if (ec) throw Error("bisect: cannot keep " + binary + " as " + kept.string() + ": " + ec.message());
  result.binary = kept.string();
  return result;
}

}  // namespace perfgate
