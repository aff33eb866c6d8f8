// perfgate baseline drop: retires approved cases (a removed kernel, a parameter point that no
// longer exists), under a person's name and logged like an approval.
#include <unistd.h>

#include <cstdio>

#include "cli/baseline_subcommands.h"
#include "perfgate/error.h"

namespace perfgate {

int drop_main(const DropFlags& flags, const Context& context) {
  const BaselineStore store(flags.update.baselines_dir);
  std::vector<std::string> matched;
  for (const auto& c : store.all(flags.machine_id))
    if (case_matches(flags.glob, c)) matched.push_back(c.fingerprint.machine_id + "  " + c.id);
  if (matched.empty()) throw Error("no approved baseline matches \"" + flags.glob + "\"; nothing changed");
  if (!flags.update.yes && isatty(STDIN_FILENO)) {
    for (const auto& line : matched) std::printf("  %s\n", line.c_str());
    if (!confirmed("Drop these " + std::to_string(matched.size()) + " baselines as " + flags.update.by + "?",
                   false))
      throw Error("not dropped; nothing changed");
  }
  const UpdateOutcome outcome =
      drop_cases(store, flags.machine_id, flags.glob, update_request(flags.update, context, ""));
  std::printf("dropped %zu cases by %s\n", outcome.case_ids.size(), flags.update.by.c_str());
  for (const auto& id : outcome.case_ids) std::printf("  %s\n", id.c_str());
  return 0;
}

}  // namespace perfgate
