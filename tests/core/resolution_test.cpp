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
  EXPECT_NE(line.find("2 cases judged against baselines from a host it does not name: a change past a case's own "
                      "allowance is named, not failed"),
            std::string::npos)
      << line;
  // Judged with the spread between the GPUs a merged baseline holds: judged, not only named.
  run.cases[2].baseline_origin = "3 GPUs of the model";
  const std::string gpus = run_resolution(run);
  EXPECT_NE(gpus.find("1 case judged against baselines from 3 GPUs of the model, with the spread between "
                      "them"),
            std::string::npos)
      << gpus;
  run.cases[0].baseline_origin = run.cases[1].baseline_origin = run.cases[2].baseline_origin = "";
  EXPECT_EQ(run_resolution(run).find("judged against baselines from"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
