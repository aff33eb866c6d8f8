// perfgate baseline approve: checks a candidate (digest, machine, age), asks on a terminal, then
// moves it into baselines/ under the approver's name and logs it.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "cli/baseline_subcommands.h"
#include "cli/child_process.h"
#include "core/terminal_text.h"
#include "core/utc_time.h"
#include "perfgate/error.h"
#include "report/baseline_tables.h"
#include "store/baseline_diff.h"
#include "store/candidate.h"

namespace perfgate {
namespace {

// created_at an ISO 8601 UTC time not in the future (core/utc_time.h): a future one would pass
// any --max-age, whatever its true age.
void refuse_stale(const Candidate& candidate, const ApproveFlags& flags) {
  const std::time_t now = std::time(nullptr);
  if (auto why = recorded_time_problem(candidate.created_at, now))
    throw Error(flags.file + ": created_at: " + *why + "; measure again with perfgate baseline propose");
  if (flags.max_age_days <= 0) return;
  const double age_days = static_cast<double>(now - *parse_utc_time(candidate.created_at)) / 86400;
  if (age_days > flags.max_age_days) {
    char text[160];
    std::snprintf(text, sizeof text, "is %.1f days old (created %s), older than --max-age %g days", age_days,
                  candidate.created_at.c_str(), flags.max_age_days);
    throw Error(flags.file + ": " + text + "; measure again with perfgate baseline propose");
  }
}

// This machine's id for the candidate's backend: --machine-id, else what `perfgate list
// --machine-id` reports for the device here.
std::string current_machine_id(const Candidate& candidate, const ApproveFlags& flags) {
  if (!flags.machine_id.empty()) return flags.machine_id;
  std::vector<std::string> args{"list", "--machine-id", "--backend", candidate.fingerprint.backend};
  if (!flags.device.empty()) args.insert(args.end(), {"--device", flags.device});
  ChildResult child = run_self(args, true);
  std::string id = child.stdout_text;
  while (!id.empty() && (id.back() == '\n' || id.back() == '\r' || id.back() == ' ')) id.pop_back();
  if (child.exit_code != 0 || id.empty())
    throw Error("cannot tell this machine's id: no " + candidate.fingerprint.backend +
                " device here (perfgate list --machine-id exited " + std::to_string(child.exit_code) +
                "); approve on the machine that measured the candidate, or pass --machine-id");
  return id;
}

// The log note: why a foreign candidate was accepted, or where the machine id came from.
std::string check_machine(const Candidate& candidate, const ApproveFlags& flags) {
  const std::string here = current_machine_id(candidate, flags);
  std::string note = flags.machine_id.empty() ? "" : "machine id given by --machine-id";
  if (here == candidate.machine_id()) return note;
  if (flags.machine_mismatch_ok.empty())
    throw Error(flags.file + ": measured on " + candidate.machine_id() + ", but this machine is " + here +
                "; approve it on that machine, or pass --machine-mismatch-ok REASON; nothing changed");
  return "measured on " + candidate.machine_id() + ", approved on " + here + ": " + flags.machine_mismatch_ok;
}

std::chrono::milliseconds test_delay() {
  // Tests kill an approval in its write window; only this command reads the variable.
  const char* text = std::getenv("PERFGATE_TEST_APPROVE_DELAY_MS");
  return std::chrono::milliseconds(text ? std::strtoll(text, nullptr, 10) : 0);
}

}  // namespace

int approve_main(const ApproveFlags& flags, const Context& context) {
  const Candidate candidate = read_candidate(flags.file);
  verify_digest(candidate, flags.file);
  refuse_stale(candidate, flags);
  const std::string note = check_machine(candidate, flags);
  const BaselineStore store(flags.update.baselines_dir);
  if (!flags.update.yes && isatty(STDIN_FILENO)) {
    std::fputs(render_candidate_diff(candidate, diff_candidate(store, candidate), true, false).c_str(),
               stdout);
    if (!confirmed("Approve " + std::to_string(candidate.cases.size()) + " cases into " +
                       store.machine_dir(candidate.machine_id()).string() + " as " + flags.update.by + "?",
                   false))
      throw Error("not approved; nothing changed");
  }
  UpdateRequest request = update_request(flags.update, context, note);
  request.test_delay = test_delay();
  const UpdateOutcome outcome = approve_candidate(store, candidate, request);
  std::printf("approved %zu cases for %s by %s\n", outcome.case_ids.size(), candidate.machine_id().c_str(),
              terminal_text(request.by).c_str());
  for (const auto& file : outcome.files) std::printf("  wrote %s\n", file.string().c_str());
  std::printf("  logged %s\n", outcome.log.string().c_str());
  return 0;
}

}  // namespace perfgate
