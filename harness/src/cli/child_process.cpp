#include "cli/child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "notify/config.h"
#include "perfgate/error.h"

extern char** environ;

namespace perfgate {
namespace {

class SpawnActions {
 public:
  SpawnActions() { posix_spawn_file_actions_init(&actions_); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

}  // namespace

std::vector<char*> child_environment(const std::vector<std::string>& extra) {
  const auto named = [](std::string_view entry, std::string_view name) {
    return entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=';
  };
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    bool kept = !named(entry, kParentPidVariable);
    for (const char* secret : kWebhookSecretVariables) kept = kept && !named(entry, secret);
    if (kept) envp.push_back(*e);
  }
  for (const std::string& e : extra) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  return envp;
}

std::string parent_pid_entry() { return std::string(kParentPidVariable) + "=" + std::to_string(::getpid()); }

void end_with_parent() {
  const char* parent = std::getenv(kParentPidVariable);
  if (!parent) return;
  const long pid = std::strtol(parent, nullptr, 10);
  ::unsetenv(kParentPidVariable);  // a grandchild names its own parent
  // SIGTERM when the thread that started us ends: run_self's caller waits for us, so that is
  // when the parent process ends. Checked after setting it, so that no moment escapes both.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != pid) ::raise(SIGTERM);
}

ChildResult run_self(const std::vector<std::string>& arguments, bool capture_stdout) {
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) throw Error("cannot find this program's path: " + ec.message());
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>("perfgate"));
  for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::vector<std::string> parent = {parent_pid_entry()};
  std::vector<char*> envp = child_environment(parent);

  int pipe_fds[2] = {-1, -1};
  SpawnActions actions;
  if (capture_stdout) {
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw Error(std::string("pipe failed: ") + std::strerror(errno));
    posix_spawn_file_actions_adddup2(actions.get(), pipe_fds[1], STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  // /proc/self/exe, not the path it names: a rebuild that replaced the file while this process
  // runs (ninja during a long `baseline propose`) leaves that path "(deleted)", but the link
  // still runs the image this process is.
  const int spawned = ::posix_spawn(&pid, "/proc/self/exe", actions.get(), nullptr, argv.data(), envp.data());
  if (capture_stdout) ::close(pipe_fds[1]);
  if (spawned != 0) {
    if (capture_stdout) ::close(pipe_fds[0]);
    throw Error("cannot run " + self + ": " + std::strerror(spawned));
  }
  ChildResult result;
  if (capture_stdout) {
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      result.stdout_text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipe_fds[0]);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw Error(std::string("waitpid failed: ") + std::strerror(errno));
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace perfgate
