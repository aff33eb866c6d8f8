#include "core/no_link.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "perfgate/error.h"

namespace perfgate {
namespace {

Error link_refused(const std::filesystem::path& path, const std::string& what) {
  return Error(what + " " + path.string() +
               " is a symbolic link; perfgate writes only to the file itself (a link could point at any "
               "file): name the file, or remove the link");
}

}  // namespace

int open_no_link(const std::filesystem::path& file, int flags, mode_t mode, const std::string& what) {
  const int fd = ::open(file.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd >= 0) return fd;
  const int error = errno;
  std::error_code ec;
  if (error == ELOOP || std::filesystem::is_symlink(file, ec)) throw link_refused(file, what);
  throw Error("cannot open " + what + " " + file.string() + ": " + std::strerror(error));
}

void refuse_linked_folder(const std::filesystem::path& dir, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_symlink(dir, ec)) throw link_refused(dir, what);
}

}  // namespace perfgate
