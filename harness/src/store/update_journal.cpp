#include "store/update_journal.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/atomic_file.h"
#include "core/content_digest.h"
#include "core/file_lock.h"
#include "perfgate/error.h"
#include "store/approval_log.h"
#include "store/json_lines.h"

namespace perfgate {
namespace {

constexpr int kJournalSchema = 1;

// The log's size before the update: a replay cuts anything after it (a line half written when
// the process was killed, or the whole update's lines) and appends the lines again, once.
std::uintmax_t size_or_zero(const std::filesystem::path& file) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(file, ec);
  return ec ? 0 : bytes;
}

void write_change(const std::filesystem::path& file, const std::optional<std::string>& content) {
  if (content) {
    write_file_atomically(file, *content);
  } else if (::unlink(file.c_str()) != 0 && errno != ENOENT) {
    throw Error(file.string() + ": cannot remove: " + std::strerror(errno));
  }
}

void remove_journal(const std::filesystem::path& journal) {
  if (::unlink(journal.c_str()) != 0 && errno != ENOENT)
    throw Error(journal.string() + ": cannot remove: " + std::strerror(errno));
}

void cut_log(const std::filesystem::path& log, std::uintmax_t size_bytes) {
  if (size_or_zero(log) > size_bytes && ::truncate(log.c_str(), static_cast<off_t>(size_bytes)) != 0)
    throw Error(log.string() + ": cannot cut an interrupted update's lines: " + std::strerror(errno));
}

std::string journal_text(const UpdateJournal& update, std::uintmax_t log_size_bytes) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const auto& change : update.changes) {
    nlohmann::ordered_json f = {{"name", change.file.filename().string()}};
    f["sha256"] = change.content ? sha256_digest(*change.content) : "";
    f["content"] = change.content ? nlohmann::ordered_json(*change.content) : nlohmann::ordered_json();
    files.push_back(std::move(f));
  }
  nlohmann::ordered_json j = {{"schema", kJournalSchema},
                              {"log", update.log.filename().string()},
                              {"log_size_bytes", log_size_bytes},
                              {"log_text", update.log_text},
                              {"files", std::move(files)}};
  return j.dump() + "\n";
}

// A file name right in the machine folder, never a path (the journal is data, like any file).
std::filesystem::path in_dir(const std::filesystem::path& dir, const std::string& name,
                             const std::filesystem::path& journal) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
    throw Error(journal.string() + ": names \"" + name + "\", not a file of this folder");
  return dir / name;
}

}  // namespace

std::filesystem::path journal_file(const std::filesystem::path& machine_dir) {
  return machine_dir / ".journal";
}

void apply_update(const UpdateJournal& update, const FileLock& folder_lock,
                  std::chrono::milliseconds test_delay) {
  const auto pause = [&] {
    if (test_delay.count() > 0) std::this_thread::sleep_for(test_delay);
  };
  const std::filesystem::path journal = journal_file(update.dir);
  pause();
  write_file_atomically(journal, journal_text(update, size_or_zero(update.log)));
  std::vector<std::pair<std::filesystem::path, std::optional<std::string>>> done;  // old contents
  try {
    for (const auto& change : update.changes) {
      pause();
      std::error_code ec;
      std::optional<std::string> old;
      if (std::filesystem::exists(change.file, ec)) old = read_file(change.file);
      write_change(change.file, change.content);
      done.emplace_back(change.file, std::move(old));
    }
    pause();
    append_json_lines(update.log, update.log_text, kApprovalLogEntry, folder_lock);
  } catch (const Error&) {
    try {
      for (auto it = done.rbegin(); it != done.rend(); ++it) write_change(it->first, it->second);
      remove_journal(journal);
    } catch (const Error&) {  // the original error is the one to report; the journal stays
    }
    throw;
  }
  pause();
  remove_journal(journal);
}

bool finish_interrupted_update(const std::filesystem::path& dir, const FileLock& folder_lock) {
  const std::filesystem::path journal = journal_file(dir);
  std::error_code ec;
  if (!std::filesystem::exists(journal, ec)) return false;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(journal));
    if (j.at("schema").get<int>() != kJournalSchema)
      throw Error(journal.string() + ": unsupported journal schema");
  } catch (const nlohmann::json::exception& e) {
    throw Error(journal.string() + ": an interrupted baseline update whose journal is damaged (" + e.what() +
                "); restore this folder from version control and remove the journal");
  }
  try {
    UpdateJournal update;
    update.dir = dir;
    update.log = in_dir(dir, j.at("log").get<std::string>(), journal);
    update.log_text = j.at("log_text").get<std::string>();
    for (const auto& f : j.at("files")) {
      FileChange change{in_dir(dir, f.at("name").get<std::string>(), journal), std::nullopt};
      if (!f.at("content").is_null()) {
        change.content = f.at("content").get<std::string>();
        if (sha256_digest(*change.content) != f.at("sha256").get<std::string>())
          throw Error(
              journal.string() + ": the new content of " + change.file.filename().string() +
              " does not match its hash; restore this folder from version control and remove the journal");
      }
      update.changes.push_back(std::move(change));
    }
    // Files already written are written again with the same bytes: cheaper to reason about
    // than to compare, and each write is atomic.
    for (const auto& change : update.changes) write_change(change.file, change.content);
    cut_log(update.log, j.at("log_size_bytes").get<std::uintmax_t>());
    append_json_lines(update.log, update.log_text, kApprovalLogEntry, folder_lock);
    remove_journal(journal);
    std::fprintf(
        stderr,
        "perfgate: %s: completed a baseline update that was interrupted (%zu files, and its log lines)\n",
        journal.string().c_str(), update.changes.size());
  } catch (const nlohmann::json::exception& e) {
    throw Error(journal.string() + ": an interrupted baseline update whose journal is damaged (" + e.what() +
                "); restore this folder from version control and remove the journal");
  }
  return true;
}

void finish_interrupted_update_locking(const std::filesystem::path& dir,
                                       const std::filesystem::path& lock_file) {
  std::error_code ec;
  if (!std::filesystem::exists(journal_file(dir), ec)) return;
  const FileLock lock(lock_file, std::chrono::seconds(30));
  finish_interrupted_update(dir, lock);
}

}  // namespace perfgate
