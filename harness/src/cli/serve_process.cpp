#include "cli/serve_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cli/child_process.h"
#include "perfgate/error.h"

namespace perfgate {

ServeProcess::ServeProcess(const std::string& executable, const std::vector<std::string>& arguments,
                           const std::vector<std::string>& defaults)
    : executable_(executable) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(executable.c_str()));
  for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // A side may be a bisected commit's build: it gets no secrets (child_environment).
  std::vector<std::string> extra;
  for (const auto& d : defaults)
    if (!std::getenv(d.substr(0, d.find('=')).c_str())) extra.push_back(d);
  extra.push_back(parent_pid_entry());  // a side ends with this check (end_with_parent)
  const std::vector<char*> envp = child_environment(extra);
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw Error(std::string("pipe failed: ") + std::strerror(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    throw Error(std::string("pipe failed: ") + std::strerror(errno));
  }
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls until exec: the parent may have threads
    // The same address-space layout in every run: with randomised placement, two processes of
    // one binary differed by a steady 6-7% on a 64K-element kernel (buffer and code addresses
    // meeting the caches differently), which paired rounds cannot average out; without it,
    // 1.000 +- 0.01. Where the system refuses (a seccomp filter), the layout stays random.
    ::personality(static_cast<unsigned long>(::personality(0xffffffff)) | ADDR_NO_RANDOMIZE);
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::execve(executable.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  if (pid < 0) {
    ::close(in[1]);
    ::close(out[0]);
    throw Error("cannot run " + executable + ": " + std::strerror(errno));
  }
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  // A child that died must not kill us with SIGPIPE when we write to it: write reports EPIPE.
  ::signal(SIGPIPE, SIG_IGN);
}

ServeProcess::~ServeProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    finish();
  }
}

void ServeProcess::send(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(to_child_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(executable_ + " serve stopped reading its commands: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

bool ServeProcess::read_line(std::string& line) {
  for (;;) {
    if (auto newline = buffered_.find('\n'); newline != std::string::npos) {
      line = buffered_.substr(0, newline);
      buffered_.erase(0, newline + 1);
      return true;
    }
    char chunk[4096];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffered_.append(chunk, static_cast<std::size_t>(n));
  }
}

int ServeProcess::finish() {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  to_child_ = from_child_ = -1;
  int status = 0;
  while (pid_ > 0 && ::waitpid(pid_, &status, 0) < 0)
    if (errno != EINTR) break;
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace perfgate
