#pragma once
// The one exception type of perfgate. It carries where the problem is (a file, a line, a key,
// a value) so the CLI can print one clear line and exit 2.
#include <stdexcept>
#include <string>

namespace perfgate {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// "file:line: key: message" with the parts that are known.
inline Error located_error(const std::string& file, int line, const std::string& key,
                           const std::string& message) {
  std::string where = file;
  if (line > 0) where += ":" + std::to_string(line);
  if (!key.empty()) where += (where.empty() ? "" : ": ") + key;
  return Error(where.empty() ? message : where + ": " + message);
}

}  // namespace perfgate
