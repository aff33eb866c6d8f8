// bisect's builds on a scratch repository of two commits, built by a shell template that writes
// a script naming its template: a kept binary serves only the templates that built it (new ones
// build again), and a placeholder inside the template's own quotes is refused before anything runs.
#include "cli/commit_builds.h"

#include <gtest/gtest.h>

#include <fstream>

#include "cli/shell_command.h"
#include "core/scratch_dir.h"
#include "error_text.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

class CommitBuildsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_git({"init", "-q", "."});
    std::ofstream(repo_.path() / "kernel.cpp") << "int x = 1;\n";
    run_git({"add", "-A"});
    run_git({"commit", "-qm", "root"});
  }
  void TearDown() override {
    capture_command({"git", "worktree", "remove", "--force", (work_.path() / "tree").string()}, repo_.path());
  }
  void run_git(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"git", "-c", "user.name=t", "-c", "user.email=t@t"};
    argv.insert(argv.end(), args.begin(), args.end());
    const CommandOutput out = capture_command(argv, repo_.path());
    ASSERT_EQ(out.exit_code, 0) << out.stderr_text;
  }
  // A build that writes {build}/perfgate, a script printing `word`.
  static BuildTemplates writing(const std::string& word) {
    return {"", "printf '#!/bin/sh\\necho " + word + "\\n' > {build}/perfgate && chmod +x {build}/perfgate",
            "{build}/{target}"};
  }
  static std::string output_of(const std::string& binary) {
    return capture_command({binary}, fs::path(binary).parent_path()).stdout_text;
  }

  ScratchDir repo_{"perfgate-commit-builds-repo"};
  ScratchDir work_{"perfgate-commit-builds-work"};
};

TEST_F(CommitBuildsTest, AKeptBinaryServesOnlyTheTemplatesThatBuiltIt) {
  const GitRange git(repo_.path());
  const std::string sha = git.resolve("HEAD", "--good");
  CommitBuilds first(git, work_.path(), writing("one"), "perfgate");
  const CommitBuild one = first.get(sha);
  ASSERT_TRUE(one.binary) << one.failure;
  EXPECT_TRUE(one.fresh);
  EXPECT_EQ(output_of(*one.binary), "one\n");
  EXPECT_FALSE(CommitBuilds(git, work_.path(), writing("one"), "perfgate").get(sha).fresh);  // kept

  CommitBuilds second(git, work_.path(), writing("two"), "perfgate");
  const CommitBuild two = second.get(sha);
  ASSERT_TRUE(two.binary) << two.failure;
  EXPECT_TRUE(two.fresh) << "other templates must build again, not take the binary the first built";
  EXPECT_EQ(output_of(*two.binary), "two\n");
  EXPECT_EQ(output_of(*first.get(sha).binary), "one\n");  // each set keeps its own
  EXPECT_NE(templates_key(writing("one"), "perfgate"), templates_key(writing("two"), "perfgate"));
  EXPECT_NE(templates_key(writing("one"), "perfgate"), templates_key(writing("one"), "my_perfgate"));
}

TEST_F(CommitBuildsTest, APlaceholderInsideQuotesIsRefused) {
  const GitRange git(repo_.path());
  for (const std::string build :
       {"make -C \"{build}\"", "cp x '{build}/perfgate'", "sh -c \"cd {source}\""}) {
    const std::string why = testing::error_text([&] {
      CommitBuilds(git, work_.path(), {"", build, "{build}/{target}"}, "perfgate");
    });
    EXPECT_NE(why.find("is inside quotes; leave placeholders unquoted"), std::string::npos)
        << build << ": " << why;
    EXPECT_NE(why.find("--build '" + build + "'"), std::string::npos) << why;
  }
  // Unquoted, or quoted again inside a command substitution of its own, each is one word.
  for (const std::string build : {"make -C {build}", "cp \"$(cat {source}/binary.txt)\" {build}/perfgate",
                                  "echo '{' \"}\" {build}", "echo \\\"{build}"})
    EXPECT_EQ(::perfgate::testing::error_text([&] {
                CommitBuilds(git, work_.path(), {"", build, "{build}/{target}"}, "perfgate");
              }),
              "")
        << build;
  EXPECT_EQ(::perfgate::testing::error_text([&] {
              CommitBuilds(git, work_.path(), {"", "", "'/artifacts/{sha}/perfgate'"}, "perfgate");
            }),
            "");  // the binary template is a path, never given to a shell
}

}  // namespace
}  // namespace perfgate
