// `perfgate check`'s lines for a case: a stored check and an A/B check of the same case print
// their verdict and judgement lines the same way, the A/B check adding its two builds.
#include "report/check_lines.h"

#include <gtest/gtest.h>

#include <string>

#include "report/report_fixture.h"

namespace perfgate {
namespace {

Judgement latency_judgement(Verdict verdict, const std::string& reason) {
  Judgement j;
  j.metric = "latency_ns";
  j.verdict = verdict;
  j.reason = reason;
  return j;
}

TEST(CheckLines, StoredAndAbChecksShareTheVerdictAndJudgementLines) {
  CaseResult stored = test::ab_case();
  stored.ab.reset();
  stored.message = "latency_ns: +100.0% against the baseline";
  stored.check = "max abs error 0 (seed 7)";
  stored.judgements = {latency_judgement(Verdict::regressed, "+100.0% against the baseline")};
  CaseResult ab = test::ab_case();
  ab.check = stored.check;
  ab.judgements = {latency_judgement(Verdict::regressed, "head/base median ratio 2.000")};

  const std::string s = render_check_lines(stored);
  const std::string a = render_check_lines(ab);
  const std::string verdict_line = ab.id + ": regressed\n";
  EXPECT_EQ(s.rfind(verdict_line, 0), 0u) << s;
  EXPECT_EQ(a.rfind(verdict_line, 0), 0u) << a;
  EXPECT_NE(s.find("  latency_ns      regressed    +100.0% against the baseline\n"), std::string::npos) << s;
  EXPECT_NE(a.find("  latency_ns      regressed    head/base median ratio 2.000\n"), std::string::npos) << a;
  EXPECT_NE(s.find("  correctness: max abs error 0 (seed 7)\n"), std::string::npos) << s;
  // Only the A/B check shows its builds, and says its verdict once.
  EXPECT_EQ(s.find("A/B "), std::string::npos) << s;
  EXPECT_NE(a.find("/base/perfgate"), std::string::npos) << a;
  std::size_t verdicts = 0;
  for (std::size_t at = a.find("regressed"); at != std::string::npos; at = a.find("regressed", at + 1))
    ++verdicts;
  EXPECT_EQ(verdicts, 2u) << a;  // the verdict line and the latency judgement
}

TEST(CheckLines, AWrongResultQuotesItsCheckOnce) {
  CaseResult r = test::ab_case();
  r.ab.reset();
  r.judgements.clear();
  r.verdict = Verdict::error;
  r.check = "max abs error 3 at 17 (seed 1)";
  r.message = "wrong result: " + r.check;
  const std::string lines = render_check_lines(r);
  EXPECT_EQ(lines, r.id + ": error\n  wrong result: max abs error 3 at 17 (seed 1)\n");
}

}  // namespace
}  // namespace perfgate
