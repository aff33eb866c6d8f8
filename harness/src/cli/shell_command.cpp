#include "cli/shell_command.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "perfgate/error.h"

namespace perfgate {
namespace {

// In the child, before exec: end with the parent, run in `dir`.
[[noreturn]] void exec_child(const std::vector<std::string>& argv, const std::filesystem::path& dir) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::chdir(dir.c_str()) != 0) {
    const std::string why = "cannot enter " + dir.string() + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, why.data(), why.size());
    ::_exit(127);
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  const std::string why = "cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, why.data(), why.size());
  ::_exit(127);
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
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::close(STDIN_FILENO);
    exec_child(argv, dir);
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
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(log.string() + ": cannot write the log: " + std::strerror(errno));
  const std::string header = "$ " + command + "\n";
  [[maybe_unused]] auto n = ::write(fd, header.data(), header.size());
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fd);
    throw Error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    exec_child({"/bin/sh", "-c", command}, dir);
  }
  ::close(fd);
  return wait_for(pid);
}

}  // namespace perfgate
