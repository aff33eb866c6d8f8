// A run's commit read from git in the project's folder: a folder whose name holds shell code
// (a quote, `$(...)`) is a name, never run.
#include "cli/run_info.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "cli/shell_command.h"
#include "core/scratch_dir.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

TEST(RunInfo, TheProjectFolderIsANameNotShellCode) {
  ScratchDir scratch("perfgate-run-info");
  const fs::path dir = scratch.path() / "o'brien $(touch PWNED) `touch PWNED2`";
  fs::create_directories(dir);
  const auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-c", "user.name=t", "-c", "user.email=t@t"});
    return capture_command(args, dir);
  };
  ASSERT_EQ(git({"init", "-q", "."}).exit_code, 0);
  ASSERT_EQ(git({"commit", "-q", "--allow-empty", "-m", "root"}).exit_code, 0);
  const std::string sha = git({"rev-parse", "HEAD"}).stdout_text.substr(0, 40);
  std::vector<std::pair<std::string, std::string>> saved;
  for (const char* name : {"PERFGATE_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA"}) {
    if (const char* v = std::getenv(name)) saved.emplace_back(name, v);
    ::unsetenv(name);
  }
  const std::string commit = source_commit(dir.string());
  for (const auto& [name, value] : saved) ::setenv(name.c_str(), value.c_str(), 1);
  EXPECT_EQ(commit, sha);
  for (const fs::path& at : {fs::current_path(), dir, scratch.path()}) {
    EXPECT_FALSE(fs::exists(at / "PWNED")) << at;
    EXPECT_FALSE(fs::exists(at / "PWNED2")) << at;
  }
}

}  // namespace
}  // namespace perfgate
