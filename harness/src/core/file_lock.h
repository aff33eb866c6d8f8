#pragma once
// An exclusive advisory lock (flock) on a file, held for the object's lifetime. The kernel drops
// it when the holder dies, so a killed approval never leaves the folder locked. The holder
// removes the file as it lets go (a waiter that then holds a removed file opens the path again),
// so none is left behind.
#include <chrono>
#include <filesystem>
#include <string>

namespace perfgate {

class FileLock {
 public:
  // Refuses a `file` that is a symbolic link (core/no_link.h). Creates `file` when missing, then waits up to
  // `timeout` for the lock; throws Error naming the file, `holder` (what holds such a lock: "baseline
  // update", "reader or writer of this history") and the process that holds it, when it wrote its id and
  // still runs, when the wait runs out. The id is cleared on release.
  FileLock(const std::filesystem::path& file, std::chrono::milliseconds timeout,
           const std::string& holder = "baseline update");
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  int fd_ = -1;
};

}  // namespace perfgate
