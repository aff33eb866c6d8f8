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
  std::string line;
  char chunk[4096];
  bool at_end = false;
  for (int number = 1; !at_end; ++number) {
    line.clear();
    for (;;) {  // one line, a chunk at a time: a hostile line costs at most the limit
      in.getline(chunk, sizeof chunk);
      const auto got = static_cast<std::size_t>(in.gcount());
      if (in.fail() && !in.eof() && !in.bad() && got == sizeof chunk - 1) {  // the chunk filled mid-line
        line.append(chunk, got);
        in.clear();
        if (line.size() > kMaxJsonLineBytes)
          throw located_error(file, number, "",
                              "a " + what + " longer than " + std::to_string(kMaxJsonLineBytes >> 20) +
                                  " MiB; no entry is that long: remove or repair the line");
        continue;
      }
      const bool ended_by_newline = !in.fail() && !in.eof();
      line.append(chunk, ended_by_newline ? got - 1 : got);
      at_end = !ended_by_newline;
      break;
    }
    if (line.size() > kMaxJsonLineBytes)
      throw located_error(file, number, "",
                          "a " + what + " longer than " + std::to_string(kMaxJsonLineBytes >> 20) +
                              " MiB; no entry is that long: remove or repair the line");
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
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
}

template <typename Visit>
void for_each_json_line(const std::filesystem::path& file, const std::string& what, Visit visit) {
  std::ifstream in(file, std::ios::binary);
  if (in) for_each_json_line(in, file.string(), what, visit);
}

}  // namespace perfgate
