// perfgate compare A.json B.json: judges run B against run A as if A were the baseline.
#include <cstdio>

#include "cli/commands.h"
#include "cli/options.h"
#include "judge/judge_case.h"
#include "judge/thresholds.h"
#include "perfgate/run_summary.h"
#include "report/table_printer.h"
#include "store/gbench_import.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

BaselineCase as_baseline(const CaseResult& r, const Fingerprint& fingerprint) {
  BaselineCase b;
  b.id = r.id;
  b.kernel = r.kernel;
  b.backend = r.backend;
  b.fingerprint = fingerprint;
  b.source_hash = r.source_hash;
  for (const auto& [name, metric] : r.metrics) b.runs[name] = {metric.samples};
  return b;
}

}  // namespace

int compare_main(const CompareFlags& flags) {
  const RunResult before = read_results_or_gbench(flags.before);
  RunResult after = read_results_or_gbench(flags.after);
  const ThresholdSet thresholds = ThresholdSet::load(flags.common.thresholds_dir);
  for (auto& r : after.cases) {
    std::optional<BaselineCase> baseline;
    for (const auto& b : before.cases)
      if (b.id == r.id && b.verdict != Verdict::error && b.verdict != Verdict::skipped)
        baseline = as_baseline(b, before.fingerprint);
    if (r.verdict == Verdict::error || r.verdict == Verdict::skipped) {
      // keep the recorded verdict
    } else {
      r.verdict = Verdict::no_baseline;
      judge_against(r, baseline, thresholds.resolve(r.id, after.fingerprint.machine_id), after.fingerprint);
    }
  }
  const int code = summarize_run(after).run_exit_code(false);
  if (!flags.common.json_file.empty()) write_results(flags.common.json_file, after);
  TableStyle style{flags.common.use_color()};
  std::fputs(render_table(after, style).c_str(), stdout);
  std::fputs(render_details(after, style).c_str(), stdout);
  return code;
}

}  // namespace perfgate
