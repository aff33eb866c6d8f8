#include "cli/git_range.h"

#include <sstream>

#include "cli/shell_command.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

GitRange::GitRange(const std::filesystem::path& source) {
  std::error_code ec;
  if (!std::filesystem::is_directory(source, ec))
    throw Error("bisect: --source " + source.string() + " is not a folder");
  const CommandOutput out = capture_command({"git", "rev-parse", "--show-toplevel"}, source);
  if (out.exit_code != 0)
    throw Error("bisect: --source " + source.string() + " is not in a git repository (" +
                trimmed(out.stderr_text) + ")");
  top_ = trimmed(out.stdout_text);
}

std::string GitRange::git(const std::vector<std::string>& args, const std::string& what) const {
  // core.quotePath=false: a file name outside ASCII as it is, so that an --unrelated glob meets
  // it ("docs/é.md"), not git's "\"docs/\\303\\251.md\"". Names git quotes still (control
  // characters, '"', '\\') match no glob: such a commit is built, never wrongly skipped.
  std::vector<std::string> argv = {"git", "-c", "core.quotePath=false", "-C", top_.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandOutput out = capture_command(argv, top_);
  if (out.exit_code != 0) throw Error("bisect: " + what + ": " + trimmed(out.stderr_text));
  return out.stdout_text;
}

std::string GitRange::resolve(const std::string& rev, const std::string& what) const {
  if (rev.empty() || rev.starts_with("-"))
    throw Error("bisect: " + what + " '" + rev + "' is not a revision");
  const CommandOutput out = capture_command(
      {"git", "-C", top_.string(), "rev-parse", "--verify", "--quiet", rev + "^{commit}"}, top_);
  if (out.exit_code != 0) throw Error("bisect: " + what + " " + rev + " names no commit in " + top_.string());
  return trimmed(out.stdout_text);
}

std::vector<RangeCommit> GitRange::commits(const std::string& good, const std::string& bad) const {
  if (capture_command({"git", "-C", top_.string(), "merge-base", "--is-ancestor", good, bad}, top_)
          .exit_code != 0)
    throw Error("bisect: --good " + good.substr(0, 12) + " is not an ancestor of --bad " + bad.substr(0, 12) +
                " in " + top_.string());
  std::vector<RangeCommit> range;
  range.push_back({good, trimmed(git({"log", "-1", "--format=%s", good}, "the good commit's subject")), {}});
  // One record per commit: a NUL, "sha TAB subject", then the files it changes, one a line.
  const std::string log =
      git({"log", "--first-parent", "--diff-merges=first-parent", "--reverse", "--format=%x00%H%x09%s",
           "--name-only", good + ".." + bad},
          "listing the commits between " + good.substr(0, 12) + " and " + bad.substr(0, 12));
  std::istringstream records(log);
  std::string record;
  std::getline(records, record, '\0');  // before the first record: nothing
  while (std::getline(records, record, '\0')) {
    const std::vector<std::string> lines = lines_of(record);
    if (lines.empty()) continue;
    const std::size_t tab = lines[0].find('\t');
    RangeCommit c{lines[0].substr(0, tab), tab == std::string::npos ? "" : lines[0].substr(tab + 1), {}};
    c.files.assign(lines.begin() + 1, lines.end());
    range.push_back(std::move(c));
  }
  if (range.size() < 2 || range.back().sha != bad)
    throw Error("bisect: --bad " + bad.substr(0, 12) + " is not on the first-parent line after --good " +
                good.substr(0, 12));
  return range;
}

std::vector<std::string> GitRange::modified_files() const {
  std::vector<std::string> files;
  for (const std::string& line :
       lines_of(git({"status", "--porcelain", "--untracked-files=no"}, "reading the source's status")))
    files.push_back(line.size() > 3 ? line.substr(3) : line);
  return files;
}

void GitRange::check_out(const std::filesystem::path& dir, const std::string& sha) const {
  std::error_code ec;
  if (!std::filesystem::exists(dir / ".git", ec)) {
    git({"worktree", "prune"}, "pruning stale worktrees");
    git({"worktree", "add", "--detach", "--force", dir.string(), sha},
        "adding the bisect worktree " + dir.string());
    return;
  }
  const std::string tree = dir.string();
  const CommandOutput out =
      capture_command({"git", "-C", tree, "checkout", "--quiet", "--detach", "--force", sha}, dir);
  if (out.exit_code != 0)
    throw Error("bisect: checking out " + sha.substr(0, 12) + " in " + tree + ": " +
                trimmed(out.stderr_text));
}

}  // namespace perfgate
