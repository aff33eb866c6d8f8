#include "cli/shell_command.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "cli/child_process.h"
#include "core/no_link.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

// The process group of the build command running now (0: none). A build script's children
// (a compiler, a `sleep`, a background job) are not ours to wait for, and PR_SET_PDEATHSIG ends
// only the shell: so each command runs as a group of its own, and perfgate ended by SIGTERM,
// SIGINT or SIGHUP ends that whole group first (a cancelled CI job, Ctrl-C), so nothing of it
// writes into the build folder a resumed bisect shares.
volatile std::sig_atomic_t g_build_group = 0;
constexpr int kEndingSignals[] = {SIGTERM, SIGINT, SIGHUP};

extern "C" void end_build_group(int sig) {
  if (g_build_group > 0) ::kill(-static_cast<pid_t>(g_build_group), SIGTERM);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Where a build command runs, the ending signals end its group too; restored as it ends.
class BuildGroupGuard {
 public:
  explicit BuildGroupGuard(pid_t group) {
    g_build_group = group;
    struct sigaction action {};
    action.sa_handler = end_build_group;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(kEndingSignals); ++i)
      ::sigaction(kEndingSignals[i], &action, &before_[i]);
  }
  ~BuildGroupGuard() {
    for (std::size_t i = 0; i < std::size(kEndingSignals); ++i)
      ::sigaction(kEndingSignals[i], &before_[i], nullptr);
    g_build_group = 0;
  }
  BuildGroupGuard(const BuildGroupGuard&) = delete;
  BuildGroupGuard& operator=(const BuildGroupGuard&) = delete;

 private:
  struct sigaction before_[std::size(kEndingSignals)]{};
};

// In the child, before exec (async-signal-safe calls only; `envp` made before the fork): end
// with the parent, run in `dir`, with the environment children get (no secrets).
[[noreturn]] void exec_child(char* const* argv, char* const* envp, const std::filesystem::path& dir) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::chdir(dir.c_str()) != 0) {
    const char why[] = "cannot enter the command's folder\n";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, why, sizeof why - 1);
    ::_exit(127);
  }
  ::execvpe(argv[0], argv, envp);
  const char why[] = "cannot run ";
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, why, sizeof why - 1);
  n = ::write(STDERR_FILENO, argv[0], std::strlen(argv[0]));
  n = ::write(STDERR_FILENO, "\n", 1);
  ::_exit(127);
}

std::vector<char*> argv_of(const std::vector<std::string>& words) {
  std::vector<char*> argv;
  for (const auto& w : words) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  return argv;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw Error(std::string("waitpid failed: ") + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

CommandOutput capture_command(const std::vector<std::string>& argv, const std::filesystem::path& dir) {
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
    throw Error(std::string("pipe failed: ") + std::strerror(errno));
  const std::vector<char*> args = argv_of(argv), envp = child_environment();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::close(STDIN_FILENO);
    exec_child(args.data(), envp.data(), dir);
  }
  ::close(out[1]);
  ::close(err[1]);
  CommandOutput result;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* texts[2] = {&result.stdout_text, &result.stderr_text};
  for (int open = 2; open > 0;) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[4096];
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        texts[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  result.exit_code = wait_for(pid);
  return result;
}

int run_shell_command(const std::string& command, const std::filesystem::path& dir,
                      const std::filesystem::path& log) {
  const int fd = open_no_link(log, O_WRONLY | O_CREAT | O_APPEND, 0644, "the build log");
  const std::string header = "$ " + command + "\n";
  [[maybe_unused]] auto n = ::write(fd, header.data(), header.size());
  const std::vector<std::string> words = {"/bin/sh", "-c", command};
  const std::vector<char*> args = argv_of(words), envp = child_environment();
  // The ending signals are held from the fork until the group is named for the handler, so that
  // no moment leaves a group that perfgate's end would miss.
  sigset_t ending, before;
  sigemptyset(&ending);
  for (const int sig : kEndingSignals) sigaddset(&ending, sig);
  ::sigprocmask(SIG_BLOCK, &ending, &before);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    ::close(fd);
    throw Error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // a group of its own, which perfgate's end ends (BuildGroupGuard)
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    exec_child(args.data(), envp.data(), dir);
  }
  ::setpgid(pid, pid);  // also here: whichever of the two runs first, the group exists after it
  ::close(fd);
  const BuildGroupGuard guard(pid);
  ::sigprocmask(SIG_SETMASK, &before, nullptr);
  return wait_for(pid);
}

}  // namespace perfgate
