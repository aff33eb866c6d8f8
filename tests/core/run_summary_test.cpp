#include "perfgate/run_summary.h"

#include <gtest/gtest.h>

#include "perfgate/metric_names.h"

namespace perfgate {
namespace {

CaseResult verdict_case(const std::string& id, Verdict verdict, double latency_change_pct = 0) {
  CaseResult c;
  c.id = id;
  c.verdict = verdict;
  Judgement j;
  j.metric = metric::latency_ns;
  j.change_pct = latency_change_pct;
  j.verdict = verdict;
  c.judgements.push_back(j);
  return c;
}

TEST(CoreRunSummary, CountsEveryVerdictAndFindsTheWorst) {
  RunResult run;
  run.cases = {verdict_case("a", Verdict::pass), verdict_case("b", Verdict::no_baseline),
               verdict_case("c", Verdict::regressed), verdict_case("d", Verdict::pass)};
  const RunSummary s = summarize_run(run);
  EXPECT_EQ(s.cases, 4);
  EXPECT_EQ(s.worst, Verdict::regressed);
  EXPECT_EQ(s.counts.size(), 7u);
  EXPECT_EQ(s.counts.at(Verdict::pass), 2);
  EXPECT_EQ(s.counts.at(Verdict::error), 0);
  const std::vector<std::pair<Verdict, int>> present = {
      {Verdict::regressed, 1}, {Verdict::no_baseline, 1}, {Verdict::pass, 2}};
  EXPECT_EQ(s.present_worst_first(), present);
  EXPECT_EQ(s.exit_code(false), 1);
}

TEST(CoreRunSummary, ExitCodes) {
  RunResult run;
  EXPECT_EQ(summarize_run(run).worst, Verdict::skipped);
  EXPECT_EQ(summarize_run(run).exit_code(true), 0);  // a run without cases
  run.cases = {verdict_case("a", Verdict::pass), verdict_case("b", Verdict::no_baseline)};
  EXPECT_EQ(summarize_run(run).exit_code(false), 77);
  EXPECT_EQ(summarize_run(run).exit_code(true), 1);
  run.cases.push_back(verdict_case("c", Verdict::error));
  EXPECT_EQ(summarize_run(run).exit_code(false), 2);
}

TEST(CoreRunSummary, WorstFirstThenLargerLatencyChange) {
  RunResult run;
  run.cases = {verdict_case("pass-small", Verdict::pass, 1),
               verdict_case("regressed", Verdict::regressed, 20),
               verdict_case("pass-large", Verdict::pass, 5), verdict_case("error", Verdict::error)};
  std::vector<std::string> order;
  for (const CaseResult* c : worst_first(run)) order.push_back(c->id);
  EXPECT_EQ(order, (std::vector<std::string>{"error", "regressed", "pass-large", "pass-small"}));
}

}  // namespace
}  // namespace perfgate
