// `perfgate history CASE --history DIR`: a case's medians run after run, from a history folder.
#include <fnmatch.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "report/history_table.h"
#include "store/history.h"

namespace perfgate {
namespace {

struct HistoryFlags {
  std::string case_glob;
  std::string history_dir;
  std::string machine_id;
  bool json = false;
};

int history_main(const HistoryFlags& flags) {
  std::vector<HistoryPoint> points;
  for (HistoryPoint& p : read_all_history(flags.history_dir, flags.machine_id))
    if (fnmatch(flags.case_glob.c_str(), p.case_id.c_str(), 0) == 0) points.push_back(std::move(p));
  if (flags.json) {
    std::fputs(render_history_json_lines(points).c_str(), stdout);
    return 0;
  }
  if (points.empty()) {
    std::fprintf(stderr, "perfgate history: no entries for %s under %s\n", flags.case_glob.c_str(),
                 flags.history_dir.c_str());
    return 0;
  }
  std::fputs(render_history_table(points).c_str(), stdout);
  return 0;
}

}  // namespace

void add_history_command(CLI::App& app, Context& context) {
  auto history_flags = std::make_shared<HistoryFlags>();
  CLI::App* history = app.add_subcommand("history", "A case's medians run after run, from a history folder");
  history->add_option("CASE", history_flags->case_glob, "Case id or glob, e.g. 'copy/cpu/*'")->required();
  history
      ->add_option("--history", history_flags->history_dir,
                   "History folder (perfgate report --append-history)")
      ->required();
  history->add_option("--machine", history_flags->machine_id,
                      "Only this machine id (default: every machine)");
  history->add_flag("--json", history_flags->json, "One JSON object per entry instead of the table");
  history->callback([history_flags, &context] { context.exit_code = history_main(*history_flags); });
}

}  // namespace perfgate
