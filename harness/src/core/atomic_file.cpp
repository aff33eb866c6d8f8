#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "perfgate/error.h"

namespace perfgate {
namespace {

Error io_error(const std::filesystem::path& file, const char* what) {
  return Error(file.string() + ": " + what + ": " + std::strerror(errno));
}

void write_all(int fd, const std::string& content, const std::filesystem::path& file) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw io_error(file, "write failed");
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& file, const std::string& content) {
  std::filesystem::path dir = file.parent_path().empty() ? "." : file.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::random_device rd;
  std::filesystem::path tmp = dir / ("." + file.filename().string() + ".tmp" + std::to_string(rd()));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error(tmp, "cannot create");
  try {
    write_all(fd, content, tmp);
    if (::fsync(fd) != 0) throw io_error(tmp, "fsync failed");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    Error e = io_error(file, "rename failed");
    ::unlink(tmp.c_str());
    throw e;
  }
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string() + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace perfgate
