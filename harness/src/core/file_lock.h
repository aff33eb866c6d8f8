#pragma once
// An exclusive advisory lock (flock) on a file, held for the object's lifetime. The kernel drops
// it when the holder dies, so a killed approval never leaves the folder locked. The holder
// removes the file as it lets go (a waiter that then holds a removed file opens the path again),
// so none is left behind.
#include <chrono>
#include <filesystem>

namespace perfgate {

class FileLock {
 public:
  // Creates `file` when missing, then waits up to `timeout` for the lock; throws Error naming
  // the file (and the process that holds it, when it wrote its id) when the wait runs out.
  FileLock(const std::filesystem::path& file, std::chrono::milliseconds timeout);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  int fd_ = -1;
};

}  // namespace perfgate
