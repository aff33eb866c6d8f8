// A judgement's flags in the results JSON: written and read back, and absent from older files.
#include <gtest/gtest.h>

#include "perfgate/metric_names.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

CaseResult judged_case(bool too_busy) {
  CaseResult c;
  c.id = "copy/cpu/n=1048576";
  Judgement j;
  j.metric = metric::relative_latency;
  j.verdict = too_busy ? Verdict::inconclusive : Verdict::pass;
  j.too_busy = too_busy;
  j.unstable = too_busy;
  c.judgements.push_back(j);
  return c;
}

TEST(JudgementJson, TooBusyRoundTrips) {
  for (bool too_busy : {false, true}) {
    const nlohmann::json j = to_json(judged_case(too_busy));
    EXPECT_EQ(j.at("judgements").at(0).at("too_busy"), too_busy);
    const CaseResult back = case_from_json(j);
    ASSERT_EQ(back.judgements.size(), 1u);
    EXPECT_EQ(back.judgements[0].too_busy, too_busy);
    EXPECT_EQ(back.judgements[0].unstable, too_busy);
  }
}

TEST(JudgementJson, AFileWithoutTheFlagReadsNotTooBusy) {
  nlohmann::json j = to_json(judged_case(true));
  j["judgements"][0].erase("too_busy");
  EXPECT_FALSE(case_from_json(j).judgements.at(0).too_busy);
}

}  // namespace
}  // namespace perfgate
