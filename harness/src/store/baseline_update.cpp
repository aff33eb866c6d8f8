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
#include "store/update_journal.h"

namespace perfgate {
namespace {

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
}

void require_identity(const UpdateRequest& request) {
  if (blank(request.by)) throw Error("an approver is required (--by NAME); nothing changed");
  if (blank(request.reason)) throw Error("a reason is required (--reason TEXT); nothing changed");
}

BaselineCase approved_case(const Candidate& candidate, const CandidateCase& c, const UpdateRequest& request) {
  BaselineCase b;
  b.id = c.id;
  b.kernel = c.kernel;
  b.backend = c.backend;
  b.fingerprint = candidate.fingerprint;
  b.perfgate_version = candidate.perfgate_version;
  b.source_hash = c.source_hash;
  b.fits_in_cache = c.fits_in_cache;
  b.bound = c.bound;
  b.calibration_reference = c.calibration_reference;
  b.cpu_wait_share = c.cpu_wait_share;
  b.measured_at = candidate.measured_at;
  b.commit = candidate.commit;
  b.runs = c.runs;
  b.run_devices = candidate.run_devices;
  b.periods = candidate.periods;
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
  store.machine_dir_to_write(machine);
  FileLock lock(store.lock_file(machine), request.lock_timeout);
  finish_interrupted_update(store.machine_dir(machine), lock);
  // Every file is read and every new text made before the first write: a file that does not
  // parse stops the approval with nothing changed.
  UpdateJournal changes{store.machine_dir(machine), {}, outcome.log, ""};
  std::vector<ApprovalLogEntry> entries;
  for (const auto& [kernel, cases] : by_kernel) {
    KernelBaselines file = store.load(machine, kernel).value_or(KernelBaselines{machine, kernel, {}});
    for (const CandidateCase* c : cases) {
      upsert(file, approved_case(candidate, *c, request));
      outcome.case_ids.push_back(c->id);
      entries.push_back(log_entry("approve", c->id, request, candidate.digest));
    }
    changes.changes.push_back({store.kernel_file(machine, kernel), to_yaml(file)});
    outcome.files.push_back(store.kernel_file(machine, kernel));
  }
  changes.log_text = log_text(entries);
  apply_update(changes, lock, request.test_delay);
  return outcome;
}

UpdateOutcome drop_cases(const BaselineStore& store, const std::string& machine_id,
                         const std::string& case_glob, const UpdateRequest& request) {
  require_identity(request);
  UpdateOutcome outcome;
  const std::vector<std::string> machines = machine_id.empty() ? store.machines() : std::vector{machine_id};
  for (const auto& machine : machines) {
    std::optional<FileLock> lock;
    UpdateJournal changes{store.machine_dir(machine), {}, store.log_file(machine), ""};
    std::vector<ApprovalLogEntry> entries;
    for (const auto& kernel : store.kernels(machine)) {
      if (!lock) {
        store.machine_dir_to_write(machine);
        lock.emplace(store.lock_file(machine), request.lock_timeout);
        finish_interrupted_update(store.machine_dir(machine), *lock);
      }
      KernelBaselines file = *store.load(machine, kernel);
      const auto kept =
          std::stable_partition(file.cases.begin(), file.cases.end(),
                                [&](const BaselineCase& c) { return !case_matches(case_glob, c); });
      if (kept == file.cases.end()) continue;
      for (auto it = kept; it != file.cases.end(); ++it) {
        outcome.case_ids.push_back(it->id);
        entries.push_back(log_entry("drop", it->id, request, ""));
      }
      file.cases.erase(kept, file.cases.end());
      changes.changes.push_back(
          {store.kernel_file(machine, kernel),
           file.cases.empty() ? std::nullopt : std::optional<std::string>(to_yaml(file))});
      outcome.files.push_back(store.kernel_file(machine, kernel));
    }
    if (entries.empty()) continue;
    changes.log_text = log_text(entries);
    apply_update(changes, *lock, request.test_delay);
    outcome.log = store.log_file(machine);
  }
  if (outcome.case_ids.empty())
    throw Error("no approved baseline matches \"" + case_glob + "\"" +
                (machine_id.empty() ? "" : " on " + machine_id) + "; nothing changed");
  return outcome;
}

}  // namespace perfgate
