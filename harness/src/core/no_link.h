#pragma once
// The one rule for every file perfgate appends to or locks (a history, its logs, a bisect's log
// and build logs, APPROVALS.log, the locks beside them, --events) and for the folders it writes
// approvals into: never through a symbolic link. A link could point at any file the user can
// write (a dangling one would have that file created), so it is refused, naming it, and the file
// it points to is left as it was.
#include <sys/types.h>

#include <filesystem>
#include <string>

namespace perfgate {

// open(2) of `file` with `flags` (O_NOFOLLOW added) and `mode`: its descriptor, or an Error
// naming `what` and the file: a link, or why it could not be opened.
int open_no_link(const std::filesystem::path& file, int flags, mode_t mode, const std::string& what);

// Throws Error naming `what` and `dir` where `dir` is a symbolic link (dangling or not).
void refuse_linked_folder(const std::filesystem::path& dir, const std::string& what);

}  // namespace perfgate
