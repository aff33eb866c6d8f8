#include "core/file_lock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "core/no_link.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

// What the current holder wrote into the lock file ("pid 1234"), when that process still runs: a
// lock taken by something that wrote no id (flock(1)) must not name an earlier holder long gone.
std::string holder_pid(int fd) {
  char text[64] = {};
  ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  std::string s = n > 0 ? std::string(text, static_cast<std::size_t>(n)) : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  if (s.rfind("pid ", 0) != 0) return "";
  const long pid = std::strtol(s.c_str() + 4, nullptr, 10);
  if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) return "";
  return s;
}

}  // namespace

FileLock::FileLock(const std::filesystem::path& file, std::chrono::milliseconds timeout,
                   const std::string& holder)
    : file_(file) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    fd_ = open_no_link(file, O_RDWR | O_CREAT, 0644, "the lock");
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        const int error = errno;
        ::close(fd_);
        throw Error(file.string() + ": cannot lock: " + std::strerror(error));
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        const std::string who = holder_pid(fd_);
        ::close(fd_);
        char waited[48] = "";
        if (timeout.count() > 0)
          std::snprintf(waited, sizeof waited, " for longer than %.3g s",
                        static_cast<double>(timeout.count()) / 1000.0);
        throw Error(file.string() + ": locked by another " + holder + (who.empty() ? "" : " (" + who + ")") +
                    waited + "; try again when it is done");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // The holder before removed the file as it let go: this lock is on a file no longer there,
    // and the next holder takes the one the path names now.
    struct stat held {};
    struct stat named {};
    if (::fstat(fd_, &held) == 0 && ::stat(file.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev)
      break;
    ::close(fd_);
  }
  const std::string me = "pid " + std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] ssize_t n = ::pwrite(fd_, me.data(), me.size(), 0);
  }
}

FileLock::~FileLock() {
  if (fd_ < 0) return;
  // Removed while still held, so that no lock file is left in a folder a person commits (a
  // consumer's baselines/); one left by a holder that was killed goes with the next holder.
  ::unlink(file_.c_str());
  [[maybe_unused]] int cleared = ::ftruncate(fd_, 0);  // for a waiter that opened it before the unlink
  ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace perfgate
