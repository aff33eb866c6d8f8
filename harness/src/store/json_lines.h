#pragma once
// Reading a JSON Lines file (the history and its logs): one JSON value per line, blank lines
// skipped. A line that is not JSON, is longer than kMaxJsonLineBytes, or that `visit` refuses with
// an Error, is an Error naming the file and line, never a silent gap; a missing file has no lines.
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "perfgate/error.h"

namespace perfgate {

// Far above a real entry (a history line is a case's medians and spreads, under 2 KB) and low
// enough that one hostile line is refused before it is parsed: a 50 MB line of numbers parsed
// whole took about 4 GB.
constexpr std::size_t kMaxJsonLineBytes = std::size_t{1} << 20;

// `what` names an entry in the error ("history entry", "log entry"), `file` the stream's file.
// `visit` takes the value, or the value and its line number.
template <typename Visit>
void for_each_json_line(std::istream& in, const std::string& file, const std::string& what, Visit visit) {
  std::vector<char> buffer(kMaxJsonLineBytes + 2);
  for (int number = 1;; ++number) {
    in.getline(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::size_t length = static_cast<std::size_t>(in.gcount());
    if (in.fail() && !in.eof() && length + 1 >= buffer.size())  // the line did not fit
      throw located_error(file, number, "",
                          "a " + what + " longer than " + std::to_string(kMaxJsonLineBytes >> 20) +
                              " MiB; no entry is that long: remove or repair the line");
    if (length == 0 && !in) break;  // the end of the stream
    const std::string line(buffer.data(), length - (in.eof() ? 0 : 1));
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      try {
        if constexpr (std::is_invocable_v<Visit, const nlohmann::json&, int>)
          visit(nlohmann::json::parse(line), number);
        else
          visit(nlohmann::json::parse(line));
      } catch (const nlohmann::json::exception& e) {
        throw located_error(file, number, "", "not a " + what + ": " + e.what());
      } catch (const Error& e) {
        throw located_error(file, number, "", e.what());
      }
    }
    if (!in) break;
  }
}

template <typename Visit>
void for_each_json_line(const std::filesystem::path& file, const std::string& what, Visit visit) {
  std::ifstream in(file, std::ios::binary);
  if (in) for_each_json_line(in, file.string(), what, visit);
}

}  // namespace perfgate
