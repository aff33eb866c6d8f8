// Judges the first measurement of every case in saved results files again, against approved
// baselines under this tree's judging code: what a change to the judge would have said of checks
// already run (each a process of its own), without the device. A case that regresses again is
// counted as confirmed where the check's recorded fresh process moved past the new allowance.
// With HISTORY=DIR set, each file is judged with the spread of the runs before it in DIR's
// history (judge/history_noise.h), and appended to it after: what `check --history` on a CI
// machine that appends every gated run would have said.
//
//   c++ -std=c++20 -O1 -Iharness/src -Iharness/include tests/study/rejudge.cpp \
//     build/harness/libperfgate_harness.a -lyaml-cpp -lfmt -lcurl -lcrypto -lspirv-cross-c-shared \
//     -lvulkan -fopenmp -o /tmp/rejudge
//   /tmp/rejudge BASELINES_DIR THRESHOLDS_DIR RESULTS.json...
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "judge/history_noise.h"
#include "judge/judge_case.h"
#include "judge/thresholds.h"
#include "perfgate/error.h"
#include "store/baseline.h"
#include "store/history.h"
#include "store/result_json.h"

int main(int argc, char** argv) {
  using namespace perfgate;
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s BASELINES_DIR THRESHOLDS_DIR RESULTS.json...\n", argv[0]);
    return 2;
  }
  try {
    const BaselineStore baselines(argv[1]);
    const ThresholdSet thresholds = ThresholdSet::load(argv[2]);
    const char* history_dir = std::getenv("HISTORY");
    int checks = 0, flagged = 0, confirmed = 0;
    for (int i = 3; i < argc; ++i) {
      RunResult run = read_results(argv[i]);
      std::map<std::string, HistoryNoise> history;
      if (history_dir)
        history = history_noise(read_all_history(history_dir, run.fingerprint.machine_id), thresholds,
                                run.fingerprint.device_uuid, run.fingerprint.host_id);
      std::map<std::string, int> sources;  // the allowances' sources, and the verdicts, of this file
      for (CaseResult& c : run.cases) {
        if (c.verdict == Verdict::error || c.verdict == Verdict::skipped) continue;
        auto baseline = baselines.find(run.fingerprint.machine_id, c.kernel, c.id);
        if (!baseline) continue;
        // As the check did: a baseline measured on several GPUs judges each against its own runs.
        baseline = runs_of_device(*baseline, run.fingerprint.device_uuid);
        const auto fresh = c.confirmations;
        const auto known = history.find(c.id);
        judge_against(c, baseline, thresholds.resolve(c.id, run.fingerprint.machine_id), run.fingerprint,
                      known == history.end() ? nullptr : &known->second);
        ++checks;
        if (!c.judgements.empty()) ++sources[c.judgements.front().threshold_source];
        ++sources["verdict " + std::string(to_string(c.verdict))];
        if (c.verdict != Verdict::regressed) continue;
        ++flagged;
        bool borne_out = !fresh.empty();
        double allowed = 0;
        for (const auto& j : c.judgements)
          if (j.verdict == Verdict::regressed) allowed = j.threshold_pct;
        for (const auto& f : fresh) borne_out = borne_out && f.change_pct > allowed;
        confirmed += borne_out;
        std::printf("%s %s: %s%s\n", argv[i], c.id.c_str(), c.message.c_str(),
                    borne_out ? " [fresh process past it too]" : fresh.empty() ? " [no fresh process recorded]" : "");
      }
      std::printf("%s:", argv[i]);
      for (const auto& [what, count] : sources) std::printf(" %s %d;", what.c_str(), count);
      std::printf("\n");
      if (history_dir) append_history(history_dir, read_results(argv[i]));
    }
    std::printf("%d case checks, %d first measurements regressed, %d of them with a fresh process past the allowance\n",
                checks, flagged, confirmed);
  } catch (const Error& e) {
    std::fprintf(stderr, "rejudge: %s\n", e.what());
    return 2;
  }
}
