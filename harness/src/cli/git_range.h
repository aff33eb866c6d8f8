#pragma once
// What `perfgate bisect` asks git: the repository of a source folder, revisions resolved to full
// shas, the first-parent commits of a range with the files each changes, whether tracked files
// have uncommitted changes, and a worktree of its own to build commits in. Every refusal names
// the value at fault.
#include <filesystem>
#include <string>
#include <vector>

namespace perfgate {

struct RangeCommit {
  std::string sha;
  std::string subject;
  std::vector<std::string> files;  // changed against its first parent, relative to the top
};

class GitRange {
 public:
  // `source`: any folder inside a git work tree. Throws Error naming it otherwise.
  explicit GitRange(const std::filesystem::path& source);

  const std::filesystem::path& top() const { return top_; }
  // The full sha of `rev` (a sha, a branch, a tag, HEAD~3); throws Error naming `what` and `rev`.
  std::string resolve(const std::string& rev, const std::string& what) const;
  // The good end, then each first-parent commit after it up to the bad end, oldest first.
  // Throws Error where `good` is not an ancestor of `bad`.
  std::vector<RangeCommit> commits(const std::string& good, const std::string& bad) const;
  // Tracked files with uncommitted changes ("git status --porcelain --untracked-files=no").
  std::vector<std::string> modified_files() const;
  // A detached worktree at `dir` (added where missing), checked out at `sha`.
  void check_out(const std::filesystem::path& dir, const std::string& sha) const;

 private:
  std::string git(const std::vector<std::string>& args, const std::string& what) const;
  std::filesystem::path top_;
};

}  // namespace perfgate
