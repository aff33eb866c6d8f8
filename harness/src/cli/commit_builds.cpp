#include "cli/commit_builds.h"

#include <unistd.h>

#include <chrono>
#include <string_view>
#include <vector>

#include "cli/shell_command.h"
#include "core/atomic_file.h"
#include "core/content_digest.h"
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

// The placeholders replaced by a quoted word ({sha} is hex digits, never quoted).
constexpr const char* kQuotedPlaceholders[] = {"{source}", "{build}", "{target}"};

// A placeholder is replaced by a word quoted for the shell ('...'); inside the template's own
// quotes that word is no longer one: within "..." a path holding `$(...)` would run. Refused,
// naming the option and the placeholder. Quotes are followed as sh reads them: '...' literal,
// "..." with backslash escapes, a backslash outside quotes escaping one character, and a
// command substitution $(...) (inside "..." too) a context of its own, unquoted.
void refuse_quoted_placeholders(const std::string& text, const std::string& option) {
  struct Context {
    char quote = 0;  // 0, '\'' or '"'
    int parens = 0;  // open ( within this $(...)
  };
  std::vector<Context> stack(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    Context& at = stack.back();
    const char c = text[i];
    if (at.quote != '\'' && c == '\\') {
      ++i;
    } else if (at.quote != '\'' && c == '$' && i + 1 < text.size() && text[i + 1] == '(') {
      stack.push_back({});
      ++i;
    } else if (at.quote == 0 && c == '(') {
      ++at.parens;
    } else if (at.quote == 0 && c == ')') {
      if (at.parens > 0)
        --at.parens;
      else if (stack.size() > 1)
        stack.pop_back();
    } else if (at.quote == 0 && (c == '\'' || c == '"')) {
      at.quote = c;
    } else if (at.quote != 0 && c == at.quote) {
      at.quote = 0;
    } else if (at.quote != 0 && c == '{') {
      for (const char* p : kQuotedPlaceholders)
        if (text.compare(i, std::string_view(p).size(), p) == 0)
          throw Error(
              "bisect: " + option + " '" + text + "': " + p +
              " is inside quotes; leave placeholders unquoted (perfgate quotes each one for the shell)");
    }
  }
}

}  // namespace

std::string templates_key(const BuildTemplates& templates, const std::string& target) {
  const std::string digest =
      sha256_digest("configure\n" + templates.configure + "\nbuild\n" + templates.build + "\nbinary\n" +
                    templates.binary + "\ntarget\n" + target);
  return digest.substr(digest.find(':') + 1, 12);
}

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
  refuse_quoted_placeholders(templates_.configure, "--configure");
  refuse_quoted_placeholders(templates_.build, "--build");
  builds_dir_ = work_dir_ / "builds" / templates_key(templates_, target_);
  std::error_code ec;
  fs::create_directories(builds_dir_ / "bin", ec);
  if (!ec) fs::create_directories(builds_dir_ / "logs", ec);
  // {build} exists before any command runs: a build step that only copies a prebuilt binary
  // there (no configure to create it) works as one that compiles.
  if (!ec) fs::create_directories(builds_dir_ / "build", ec);
  if (ec) throw Error("bisect: cannot create the work folder " + builds_dir_.string() + ": " + ec.message());
}

std::string CommitBuilds::expand(const std::string& text, const std::string& sha, bool for_shell) const {
  const auto word = [for_shell](const std::string& w) { return for_shell ? shell_word(w) : w; };
  std::string out = text;
  replace_all(out, "{source}", word(worktree().string()));
  replace_all(out, "{build}", word((builds_dir_ / "build").string()));
  replace_all(out, "{sha}", sha);
  replace_all(out, "{target}", word(target_));
  return out;
}

CommitBuild CommitBuilds::get(const std::string& sha) {
  CommitBuild result;
  const fs::path kept = builds_dir_ / "bin" / sha / target_;
  const fs::path failed = builds_dir_ / "logs" / (sha + ".failed");
  const fs::path log = builds_dir_ / "logs" / (sha + ".log");
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
  const fs::path configured = builds_dir_ / "configured";
  int code = 0;
  if (!templates_.configure.empty() && !fs::exists(configured, ec)) {
    code = run_shell_command(expand(templates_.configure, sha, true), worktree(), log);
    if (code == 0) write_file_atomically(configured, templates_.configure + "\n");
  }
  if (code == 0) code = run_shell_command(expand(templates_.build, sha, true), worktree(), log);
  const std::string binary = expand(templates_.binary, sha, false);
  result.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (code == 0 && !executable(binary)) code = -1;
  if (code != 0) {
    write_file_atomically(failed, std::to_string(code) + "\n");
    result.failure = code == -1
                         ? "built, but no binary at " + binary + " (log: " + log.string() + ")"
                         : "does not build: exit " + std::to_string(code) + " (log: " + log.string() + ")";
    return result;
  }
  // Copied beside, then renamed: a bisect killed mid-copy leaves no cut binary under the kept name,
  // which a resumed bisect would take as built.
  fs::create_directories(kept.parent_path(), ec);
  const fs::path part = kept.string() + ".part";
  fs::copy_file(binary, part, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::rename(part, kept, ec);
  if (ec) throw Error("bisect: cannot keep " + binary + " as " + kept.string() + ": " + ec.message());
  result.binary = kept.string();
  return result;
}

}  // namespace perfgate
