#include "store/baseline_update.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <thread>

#include "core/atomic_file.h"
#include "core/file_lock.h"
#include "perfgate/error.h"
#include "store/approval_log.h"
#include "store/baseline_file.h"

namespace perfgate {
namespace {

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
}

void require_identity(const UpdateRequest& request) {
  if (blank(request.by)) throw Error("an approver is required (--by NAME); nothing changed");
  if (blank(request.reason)) throw Error("a reason is required (--reason TEXT); nothing changed");
}

// New contents of kernel files (nullopt: remove the file), written one by one. When a write
// fails the files already written get their old contents back, so an error (a full disk)
// leaves the folder as it was.
class FileChanges {
 public:
  void add(std::filesystem::path file, std::optional<std::string> content) {
    changes_.push_back({std::move(file), std::move(content)});
  }

  std::vector<std::filesystem::path> apply(std::chrono::milliseconds test_delay) {
    std::vector<std::pair<std::filesystem::path, std::optional<std::string>>> done;  // old contents
    try {
      for (const auto& [file, content] : changes_) {
        if (test_delay.count() > 0) std::this_thread::sleep_for(test_delay);
        std::error_code ec;
        std::optional<std::string> old;
        if (std::filesystem::exists(file, ec)) old = read_file(file);
        write(file, content);
        done.emplace_back(file, std::move(old));
      }
    } catch (...) {
      for (auto it = done.rbegin(); it != done.rend(); ++it) {
        try {
          write(it->first, it->second);
        } catch (const Error&) {  // the original error is the one to report
        }
      }
      throw;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& change : changes_) files.push_back(change.first);
    return files;
  }

 private:
  static void write(const std::filesystem::path& file, const std::optional<std::string>& content) {
    if (content) {
      write_file_atomically(file, *content);
    } else if (::unlink(file.c_str()) != 0 && errno != ENOENT) {
      throw Error(file.string() + ": cannot remove: " + std::strerror(errno));
    }
  }

  std::vector<std::pair<std::filesystem::path, std::optional<std::string>>> changes_;
};

BaselineCase approved_case(const Candidate& candidate, const CandidateCase& c, const UpdateRequest& request) {
  BaselineCase b;
  b.id = c.id;
  b.kernel = c.kernel;
  b.backend = c.backend;
  b.fingerprint = candidate.fingerprint;
  b.perfgate_version = candidate.perfgate_version;
  b.source_hash = c.source_hash;
  b.measured_at = candidate.measured_at;
  b.commit = candidate.commit;
  b.runs = c.runs;
  b.approval = {request.by, request.at, request.reason, request.commit};
  return b;
}

ApprovalLogEntry log_entry(const char* action, const std::string& case_id, const UpdateRequest& request,
                           const std::string& digest) {
  return {request.at, action, case_id, request.by, request.reason, request.commit, digest, request.note};
}

}  // namespace

bool case_matches(const std::string& glob, const BaselineCase& baseline) {
  return glob == baseline.kernel || ::fnmatch(glob.c_str(), baseline.id.c_str(), 0) == 0;
}

UpdateOutcome approve_candidate(const BaselineStore& store, const Candidate& candidate,
                                const UpdateRequest& request) {
  require_identity(request);
  if (content_digest(candidate) != candidate.digest)
    throw Error("the candidate's digest does not match its content; nothing changed");
  const std::string& machine = candidate.machine_id();
  std::map<std::string, std::vector<const CandidateCase*>> by_kernel;
  for (const auto& c : candidate.cases) by_kernel[c.kernel].push_back(&c);

  UpdateOutcome outcome;
  outcome.log = store.log_file(machine);
  FileLock lock(store.lock_file(machine), request.lock_timeout);
  // Every file is read and every new text made before the first write: a file that does not
  // parse stops the approval with nothing changed.
  FileChanges changes;
  std::vector<ApprovalLogEntry> entries;
  for (const auto& [kernel, cases] : by_kernel) {
    KernelBaselines file = store.load(machine, kernel).value_or(KernelBaselines{machine, kernel, {}});
    for (const CandidateCase* c : cases) {
      upsert(file, approved_case(candidate, *c, request));
      outcome.case_ids.push_back(c->id);
      entries.push_back(log_entry("approve", c->id, request, candidate.digest));
    }
    changes.add(store.kernel_file(machine, kernel), to_yaml(file));
  }
  outcome.files = changes.apply(request.test_delay);
  append_to_log(outcome.log, entries);
  return outcome;
}

UpdateOutcome drop_cases(const BaselineStore& store, const std::string& machine_id,
                         const std::string& case_glob, const UpdateRequest& request) {
  require_identity(request);
  UpdateOutcome outcome;
  const std::vector<std::string> machines = machine_id.empty() ? store.machines() : std::vector{machine_id};
  for (const auto& machine : machines) {
    std::optional<FileLock> lock;
    FileChanges changes;
    std::vector<ApprovalLogEntry> entries;
    for (const auto& kernel : store.kernels(machine)) {
      if (!lock) lock.emplace(store.lock_file(machine), request.lock_timeout);
      KernelBaselines file = *store.load(machine, kernel);
      const auto kept = std::stable_partition(file.cases.begin(), file.cases.end(),
                                              [&](const BaselineCase& c) { return !case_matches(case_glob, c); });
      if (kept == file.cases.end()) continue;
      for (auto it = kept; it != file.cases.end(); ++it) {
        outcome.case_ids.push_back(it->id);
        entries.push_back(log_entry("drop", it->id, request, ""));
      }
      file.cases.erase(kept, file.cases.end());
      changes.add(store.kernel_file(machine, kernel),
                  file.cases.empty() ? std::nullopt : std::optional<std::string>(to_yaml(file)));
    }
    if (entries.empty()) continue;
    for (auto& f : changes.apply(request.test_delay)) outcome.files.push_back(std::move(f));
    outcome.log = store.log_file(machine);
    append_to_log(outcome.log, entries);
  }
  if (outcome.case_ids.empty())
    throw Error("no approved baseline matches \"" + case_glob + "\"" +
                (machine_id.empty() ? "" : " on " + machine_id) + "; nothing changed");
  return outcome;
}

}  // namespace perfgate
