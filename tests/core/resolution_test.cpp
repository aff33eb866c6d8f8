// The resolution every printer shows: a case's allowance and where it came from, and the run's line.
#include "core/resolution.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

CaseResult judged(const std::string& id, double allowed_pct, const std::string& source) {
  CaseResult c;
  c.id = id;
  c.verdict = Verdict::pass;
  Judgement j;
  j.metric = "relative_latency";
  j.baseline_median = 1;
  j.current_median = 1;
  j.threshold_pct = allowed_pct;
  j.threshold_source = source;
  c.judgements.push_back(j);
  return c;
}

TEST(Resolution, RunLineSaysWhenTheMachineWasBusy) {
  RunResult run;
  run.fingerprint.machine_id = "cpu-x";
  run.cases = {judged("a", 5, "floor"), judged("b", 39, "load"), judged("c", 60, "load")};
  const std::string line = run_resolution(run);
  EXPECT_NE(line.find("this gate catches >= 39%"), std::string::npos) << line;
  EXPECT_NE(line.find("1 floor, 2 load"), std::string::npos) << line;
  EXPECT_NE(line.find("busy machine: 2 cases allowed more than on a quiet one"), std::string::npos) << line;
  EXPECT_EQ(case_resolution(run.cases[1]), "39% load");

  RunResult quiet;
  quiet.fingerprint.machine_id = "cpu-x";
  quiet.cases = {judged("a", 5, "floor"), judged("b", 5, "floor")};
  EXPECT_EQ(run_resolution(quiet).find("busy"), std::string::npos) << run_resolution(quiet);
  EXPECT_EQ(run_resolution_brief(quiet), "catches >= 5.0%");
}

TEST(Resolution, RunLineNamesWhoseBaselinesItWasJudgedAgainst) {
  RunResult run;
  run.fingerprint.machine_id = "cpu-x";
  run.cases = {judged("a", 5, "noise"), judged("b", 6, "noise"), judged("c", 7, "noise")};
  run.cases[0].baseline_origin = run.cases[1].baseline_origin = "a host it does not name";
  const std::string line = run_resolution(run);
  EXPECT_NE(line.find("2 cases judged against baselines from a host it does not name: a change within its class's "
                      "default bound"),
            std::string::npos)
      << line;
  // Placed by this GPU's own runs in the history: judged at that level.
  run.cases[2].baseline_origin = "another device (gpu-0...)";
  run.cases[2].judgements[0].level_source = "history runs";
  const std::string placed = run_resolution(run);
  EXPECT_NE(placed.find("1 case judged against baselines from another device (gpu-0...), at the level this one's "
                        "own runs in the history placed"),
            std::string::npos)
      << placed;
  // A bound widens what the case catches: 7% allowed with a 50% bound, in quadrature, 50.8%.
  run.cases[2].judgements[0].level_bound_pct = 50;
  EXPECT_EQ(case_resolution(run.cases[2]), "51% noise");
  run.cases[0].baseline_origin = run.cases[1].baseline_origin = run.cases[2].baseline_origin = "";
  EXPECT_EQ(run_resolution(run).find("judged against baselines from"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
