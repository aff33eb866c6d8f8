#pragma once
// Reading a JSON Lines file (the history and its logs): one JSON value per line, blank lines
// skipped. A line that is not JSON, or that `visit` refuses with an Error, is an Error naming the
// file and line, never a silent gap; a missing file has no lines.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "perfgate/error.h"

namespace perfgate {

// `what` names an entry in the error ("history entry", "log entry").
template <typename Visit>
void for_each_json_line(const std::filesystem::path& file, const std::string& what, Visit visit) {
  std::ifstream in(file);
  if (!in) return;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      visit(nlohmann::json::parse(line));
    } catch (const nlohmann::json::exception& e) {
      throw located_error(file.string(), number, "", "not a " + what + ": " + e.what());
    } catch (const Error& e) {
      throw located_error(file.string(), number, "", e.what());
    }
  }
}

}  // namespace perfgate
