#pragma once
// A private temporary folder, removed with everything in it: where a command's child processes
// write the results it reads back.
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "perfgate/error.h"

namespace perfgate {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "perfgate") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
      throw Error("cannot create a temporary folder in " + std::filesystem::temp_directory_path().string());
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace perfgate
