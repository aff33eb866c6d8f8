#pragma once
// Crash-safe file writes: a reader sees the old content or the new, never a mix.
#include <filesystem>
#include <string>

namespace perfgate {

// Writes to a temporary file beside `file`, fsyncs it, renames it over `file`, fsyncs the folder.
void write_file_atomically(const std::filesystem::path& file, const std::string& content);
std::string read_file(const std::filesystem::path& file);  // throws Error naming the file

}  // namespace perfgate
