#include "store/json_lines.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/no_link.h"

namespace perfgate {
namespace {

Error io_error(const std::filesystem::path& file, const char* what, int error) {
  return Error(file.string() + ": " + what + ": " + std::strerror(error));
}

// An open descriptor, closed on every way out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// The line the file ends in: its count of newlines + 1. Read in blocks, so a hostile line costs no
// more memory than a short one; only an error message needs it.
int last_line_number(int fd) {
  std::vector<char> block(1 << 16);
  int lines = 0;
  off_t at = 0;
  for (ssize_t n; (n = ::pread(fd, block.data(), block.size(), at)) > 0; at += n)
    lines += static_cast<int>(std::count(block.begin(), block.begin() + n, '\n'));
  return lines + 1;
}

void refuse_cut_end(int fd, const std::filesystem::path& file, const std::string& what) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw io_error(file, "cannot read", errno);
  char last = '\n';
  if (st.st_size > 0 && ::pread(fd, &last, 1, st.st_size - 1) != 1)
    throw io_error(file, "cannot read", errno);
  if (last != '\n')
    throw located_error(file.string(), last_line_number(fd), "",
                        "the last " + what + " was cut short (no end of line); repair or remove that line");
}

void refuse_bad_lines(const std::filesystem::path& file, const std::string& lines, const std::string& what) {
  if (lines.empty()) return;
  if (lines.back() != '\n') throw Error(file.string() + ": an append of whole lines must end in a newline");
  for (std::size_t start = 0, end; start < lines.size(); start = end + 1) {
    end = lines.find('\n', start);
    if (end - start > kMaxJsonLineBytes)
      throw Error(file.string() + ": " + an_entry(what) + " of " + std::to_string(end - start) +
                  " bytes, over the limit of " + std::to_string(kMaxJsonLineBytes >> 20) +
                  " MiB that readers refuse; nothing appended");
  }
}

void fsync_folder(const std::filesystem::path& file) {
  const std::filesystem::path dir = file.parent_path().empty() ? "." : file.parent_path();
  const Fd folder{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (folder.fd < 0 || ::fsync(folder.fd) != 0) throw io_error(dir, "fsync of the folder failed", errno);
}

}  // namespace

void refuse_cut_last_line(const std::filesystem::path& file, const std::string& what) {
  const Fd in{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) {
    if (errno == ENOENT) return;
    throw io_error(file, "cannot read", errno);
  }
  refuse_cut_end(in.fd, file, what);
}

void append_json_lines(const std::filesystem::path& file, const std::string& lines, const std::string& what,
                       const FileLock& /*writers: held by the caller for the whole append*/) {
  refuse_bad_lines(file, lines, what);
  if (lines.empty()) return;
  std::error_code ec;
  const bool existed = std::filesystem::exists(file, ec);
  const Fd out{open_no_link(file, O_RDWR | O_APPEND | O_CREAT, 0644, "the file to append to")};
  refuse_cut_end(out.fd, file, what);
  struct stat st {};
  if (::fstat(out.fd, &st) != 0) throw io_error(file, "cannot read", errno);
  const char* data = lines.data();
  std::size_t left = lines.size();
  while (left > 0) {
    const ssize_t n = ::write(out.fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      // Only what this append wrote goes: the lock keeps every other writer out.
      if (::ftruncate(out.fd, st.st_size) != 0)
        throw io_error(file, "an append failed part-way and could not be cut back (repair its last line)",
                       errno);
      throw io_error(file, "cannot append", error);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(out.fd) != 0) throw io_error(file, "fsync failed", errno);
  if (!existed) fsync_folder(file);
}

}  // namespace perfgate
