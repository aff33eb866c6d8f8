#pragma once
// All-or-nothing updates of one machine's baselines folder. Before the first kernel file changes,
// the whole update (every file's new content with its hash, and the approval log lines) is
// written atomically to baselines/<machine id>/.journal; it is removed once the files and the log
// lines are written. A journal found later is an update a killed process left half done: the
// next perfgate command that takes the folder's lock or reads its baselines rolls it forward, so
// no active baseline ever lacks the log line that explains it, and no log line its baseline.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/file_lock.h"

namespace perfgate {

struct FileChange {
  std::filesystem::path file;          // in the machine folder
  std::optional<std::string> content;  // nullopt: remove the file
};

struct UpdateJournal {
  std::filesystem::path dir;  // the machine folder
  std::vector<FileChange> changes;
  std::filesystem::path log;  // APPROVALS.log, in the machine folder
  std::string log_text;       // the lines the update appends
};

std::filesystem::path journal_file(const std::filesystem::path& machine_dir);

// Under the folder's lock (`folder_lock`, which the log lines are appended under): journal, files,
// log lines, journal removed. `test_delay` is waited
// before each of those steps (tests kill the process between them). When a write fails, the
// files already written get their old contents back and the journal goes, so an error (a full
// disk) leaves the folder as it was; a kill leaves the journal for the next command.
void apply_update(const UpdateJournal& update, const FileLock& folder_lock,
                  std::chrono::milliseconds test_delay);

// Under the folder's lock: rolls forward an update left by a killed process, says so on stderr,
// and returns true; false when there is none. Throws Error naming the journal when it is damaged.
bool finish_interrupted_update(const std::filesystem::path& machine_dir, const FileLock& folder_lock);

// For readers, which do not hold the lock: when a journal is there, takes the lock (waiting for
// a running update, which removes its own journal) and finishes what is left.
void finish_interrupted_update_locking(const std::filesystem::path& machine_dir,
                                       const std::filesystem::path& lock_file);

}  // namespace perfgate
