#pragma once
// The subcommands of `perfgate baseline`, one file each, and what approve and drop share.
#include <chrono>
#include <string>

#include "cli/commands.h"
#include "store/baseline_update.h"

namespace CLI {
class App;  // CLI11's header is included by the units that use it (cli/commands.h says why)
}  // namespace CLI

namespace perfgate {

void add_baseline_propose(CLI::App& baseline, Context& context);
void add_baseline_approve(CLI::App& baseline, Context& context);
void add_baseline_review(CLI::App& baseline, Context& context);  // show, diff
void add_baseline_drop(CLI::App& baseline, Context& context);

// --by, --reason, --yes, --baselines, --lock-timeout: who changes baselines/, and how.
struct UpdateFlags {
  std::string by;
  std::string reason;
  bool yes = false;
  std::string baselines_dir;
  double lock_timeout_s = 30;
};
void add_update_options(CLI::App& command, UpdateFlags& flags, const Context& context);
// The request with the time and commit of now; `note` goes to the log.
UpdateRequest update_request(const UpdateFlags& flags, const Context& context, std::string note);

// On a terminal (stdin), asks `question` and returns whether the answer was yes; off a terminal
// or with --yes, returns true without asking.
bool confirmed(const std::string& question, bool yes);

}  // namespace perfgate
