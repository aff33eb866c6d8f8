#pragma once
// JSON Lines files (the history, its ACKNOWLEDGED.log and ALERTED.log, a baselines folder's
// APPROVALS.log): one reader and one appender, each with one rule for every such file.
//
// Reading: one JSON value per line; a line of nothing but blanks (spaces, tabs, a CR) is skipped.
// A line that is not JSON, is longer than kMaxJsonLineBytes, or that `visit` refuses with an
// Error, is an Error naming the file and line, never a silent gap; a missing file has no lines.
//
// Appending (append_json_lines): the caller holds the lock every writer of the file takes, the
// text goes in whole lines in one append, and it is fsynced before the call returns. These files
// are audit trails (who approved or dropped a baseline, who accepted a change point, which alert
// went out) and the record of gated runs: once a command said it logged or appended, a crash of
// the machine a moment later must not take the lines back. It costs one fsync per command.
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>

#include "core/file_lock.h"
#include "perfgate/error.h"

namespace perfgate {

// Far above a real entry (a history line is a case's medians and spreads, under 2 KB) and low
// enough that one hostile line is refused before it is parsed: a 50 MB line of numbers parsed
// whole took about 4 GB.
constexpr std::size_t kMaxJsonLineBytes = std::size_t{1} << 20;

// "a history entry", "an approval log entry": `what` with its article, for the errors.
inline std::string an_entry(const std::string& what) {
  return (what.find_first_of("aeiou") == 0 ? "an " : "a ") + what;
}

// `what` names an entry in the error ("history entry", "log entry"), `file` the stream's file.
// `visit` takes the value, or the value and its line number.
template <typename Visit>
void for_each_json_line(std::istream& in, const std::string& file, const std::string& what, Visit visit) {
  const std::string too_long = an_entry(what) + " longer than " + std::to_string(kMaxJsonLineBytes >> 20) +
                               " MiB; no entry is that long: remove or repair the line";
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
        if (line.size() > kMaxJsonLineBytes) throw located_error(file, number, "", too_long);
        continue;
      }
      const bool ended_by_newline = !in.fail() && !in.eof();
      line.append(chunk, ended_by_newline ? got - 1 : got);
      at_end = !ended_by_newline;
      break;
    }
    if (line.size() > kMaxJsonLineBytes) throw located_error(file, number, "", too_long);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      if constexpr (std::is_invocable_v<Visit, const nlohmann::json&, int>)
        visit(nlohmann::json::parse(line), number);
      else
        visit(nlohmann::json::parse(line));
    } catch (const nlohmann::json::exception& e) {
      throw located_error(file, number, "", "not " + an_entry(what) + ": " + e.what());
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

// Appends `lines` (whole lines, each ending in '\n', none longer than kMaxJsonLineBytes: else an
// Error and nothing written) to `file`, creating it. `writers` is the lock every writer of the
// file holds (the history's `<file>.lock`, a baselines folder's `.lock` for its APPROVALS.log),
// so appends never interleave and a reader holding it sees whole appends. The lines go in with
// O_APPEND and are fsynced, and the folder too when the append created the file. A write that
// fails part-way (a full disk) is cut back to the file's size before it, so an append is whole or
// absent; a file that is a symbolic link is refused (core/no_link.h); a file whose last line has no end (a
// writer killed mid-write) is refused as refuse_cut_last_line says, with nothing appended.
void append_json_lines(const std::filesystem::path& file, const std::string& lines, const std::string& what,
                       const FileLock& writers);

// Throws Error naming the file and its last line when that line has no end of line: appending
// after it would glue two entries into one bad line. A missing or empty file passes.
void refuse_cut_last_line(const std::filesystem::path& file, const std::string& what);

}  // namespace perfgate
