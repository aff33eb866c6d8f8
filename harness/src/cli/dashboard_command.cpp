// `perfgate dashboard --history DIR [--baselines DIR] --out SITE`: a static site of every
// machine's history. Wiring only: the store reads (refusing what every reader refuses), the judge
// decides (judge/history_analysis.h), dashboard/ turns that into the site.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include "cli/commands.h"
#include "dashboard/site_model.h"
#include "dashboard/site_writer.h"
#include "judge/history_analysis.h"
#include "store/history.h"
#include "store/history_log.h"

namespace perfgate {

int dashboard_main(const DashboardFlags& flags) {
  const ThresholdSet thresholds = ThresholdSet::load(flags.thresholds_dir);
  std::optional<BaselineStore> baselines;
  if (std::filesystem::is_directory(flags.baselines_dir)) baselines.emplace(flags.baselines_dir);
  std::vector<CaseHistory> histories;
  {
    const std::vector<HistoryPoint> points = read_all_history(flags.history_dir);
    histories = analyse_history(points, thresholds, baselines ? &*baselines : nullptr,
                                read_acknowledgements(flags.history_dir));
  }
  attach_bisections(histories, read_bisected(flags.history_dir));
  SiteInputs inputs{
      .histories = &histories,
      .alerted = read_alerted(flags.history_dir),
      .approvals = baselines ? read_approvals(flags.baselines_dir) : decltype(SiteInputs::approvals){},
      .baselines = baselines ? read_baselines(flags.baselines_dir) : decltype(SiteInputs::baselines){}};
  const SiteSummary summary =
      write_site(flags.out, [&](const SiteDocumentSink& sink) { return build_site_data(inputs, sink); });
  std::printf("dashboard: %d cases, %d runs, %d item%s needing attention or triaged; %.1f MB in %s\n",
              summary.cases, summary.runs, summary.items, summary.items == 1 ? "" : "s", summary.bytes / 1e6,
              (std::filesystem::path(flags.out) / "index.html").c_str());
  return 0;
}

}  // namespace perfgate
