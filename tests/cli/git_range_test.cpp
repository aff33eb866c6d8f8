// What bisect asks git, on a scratch repository of four commits: revisions resolved to full shas
// (an unknown one refused, naming it), the range's first-parent commits oldest first with their
// subjects and changed files, a range whose good end is not an ancestor refused, uncommitted
// changes to tracked files reported (untracked files not), and the worktree checked out per commit.
#include "cli/git_range.h"

#include <gtest/gtest.h>

#include <fstream>

#include "cli/shell_command.h"
#include "core/scratch_dir.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

class GitRangeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    git({"init", "-q", "."});
    write_text("kernel.cpp", "int x = 1;\n");
    commit("root");
    write_text("README.md", "notes\n");
    commit("readme: notes");
    write_text("kernel.cpp", "int x = 2;\n");
    write_text("docs/a.md", "a\n");
    commit("kernel: two");
  }

  std::string git(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"git", "-c", "user.name=t", "-c", "user.email=t@t"};
    argv.insert(argv.end(), args.begin(), args.end());
    const CommandOutput out = capture_command(argv, dir_.path());
    EXPECT_EQ(out.exit_code, 0) << out.stderr_text;
    return out.stdout_text.substr(0, out.stdout_text.find('\n'));
  }
  void write_text(const std::string& name, const std::string& text) {
    fs::create_directories((dir_.path() / name).parent_path());
    std::ofstream(dir_.path() / name) << text;
  }
  void commit(const std::string& subject) {
    git({"add", "-A"});
    git({"commit", "-qm", subject});
  }

  ScratchDir dir_{"perfgate-git-range-test"};
};

TEST_F(GitRangeTest, ListsTheRangeOldestFirstWithItsFiles) {
  const GitRange range(dir_.path());
  const std::string good = range.resolve("HEAD~2", "--good"), bad = range.resolve("HEAD", "--bad");
  EXPECT_EQ(good.size(), 40u);
  const auto commits = range.commits(good, bad);
  ASSERT_EQ(commits.size(), 3u);
  EXPECT_EQ(commits[0].sha, good);
  EXPECT_EQ(commits[0].subject, "root");
  EXPECT_EQ(commits[1].subject, "readme: notes");
  EXPECT_EQ(commits[1].files, (std::vector<std::string>{"README.md"}));
  EXPECT_EQ(commits[2].sha, bad);
  EXPECT_EQ(commits[2].files, (std::vector<std::string>{"docs/a.md", "kernel.cpp"}));
}

TEST_F(GitRangeTest, RefusesWhatNamesNoRange) {
  const GitRange range(dir_.path());
  try {
    range.resolve("nosuchrev", "--good");
    FAIL() << "an unknown revision was resolved";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--good nosuchrev names no commit"), std::string::npos) << e.what();
  }
  EXPECT_THROW(range.commits(range.resolve("HEAD", "--good"), range.resolve("HEAD~2", "--bad")), Error);
  EXPECT_THROW(GitRange(dir_.path() / "no-such-folder"), Error);
}

TEST_F(GitRangeTest, ReportsUncommittedChangesToTrackedFilesOnly) {
  const GitRange range(dir_.path());
  write_text("untracked.txt", "x\n");
  EXPECT_TRUE(range.modified_files().empty());
  write_text("kernel.cpp", "int x = 3;\n");
  EXPECT_EQ(range.modified_files(), (std::vector<std::string>{"kernel.cpp"}));
}

// A file name outside ASCII as it is, not as git quotes it ("\"docs/\\303\\251.md\""): an
// --unrelated glob such as docs/* must meet it.
TEST_F(GitRangeTest, FileNamesOutsideAsciiAreListedAsTheyAre) {
  write_text("docs/\xc3\xa9t\xc3\xa9.md", "summer\n");
  commit("docs: \xc3\xa9t\xc3\xa9");
  const GitRange range(dir_.path());
  const auto commits = range.commits(range.resolve("HEAD~1", "--good"), range.resolve("HEAD", "--bad"));
  ASSERT_EQ(commits.size(), 2u);
  EXPECT_EQ(commits[1].files, (std::vector<std::string>{"docs/\xc3\xa9t\xc3\xa9.md"}));
}

TEST_F(GitRangeTest, ChecksOutEachCommitInAWorktreeOfItsOwn) {
  const GitRange range(dir_.path());
  ScratchDir work("perfgate-git-range-work");
  const fs::path tree = work.path() / "tree";
  range.check_out(tree, range.resolve("HEAD~2", "--good"));
  std::ifstream first(tree / "kernel.cpp");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(first), {}), "int x = 1;\n");
  range.check_out(tree, range.resolve("HEAD", "--bad"));
  std::ifstream last(tree / "kernel.cpp");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(last), {}), "int x = 2;\n");
  git({"worktree", "remove", "--force", tree.string()});
}

}  // namespace
}  // namespace perfgate
