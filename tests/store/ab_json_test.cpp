// The results JSON's "ab" object: written and read back whole, an unbounded interval as null,
// and a case without one stays without one.
#include "store/ab_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "report/report_fixture.h"
#include "store/result_json.h"

namespace perfgate {
namespace {

TEST(AbJson, RoundTripsThroughTheCaseJson) {
  CaseResult c = test::ab_case();
  c.ab->interval_high = std::numeric_limits<double>::infinity();
  const nlohmann::json j = to_json(c);
  EXPECT_TRUE(j.at("ab").at("interval").at(1).is_null());
  EXPECT_EQ(j.at("ab").at("base").at("fingerprint").at("machine_id"), "cpu-test-2t");
  const CaseResult back = case_from_json(j);
  ASSERT_TRUE(back.ab);
  EXPECT_EQ(back.ab->base.binary, "/base/perfgate");
  EXPECT_EQ(back.ab->head.perfgate_version, "0.2.0");
  EXPECT_EQ(back.ab->head.source_hash, "bbbbbbbbbbbbbbbb");
  EXPECT_EQ(back.ab->base.latency_ns, 100000);
  EXPECT_EQ(back.ab->rounds, 40);
  EXPECT_EQ(back.ab->median_ratio, 2.0);
  EXPECT_EQ(back.ab->interval_low, 1.95);
  EXPECT_TRUE(std::isinf(back.ab->interval_high));
  EXPECT_EQ(back.ab->ratios, (std::vector<double>{1.9, 2.0, 2.1}));
}

TEST(AbJson, ACaseWithoutAbHasNone) {
  CaseResult c = test::ab_case();
  c.ab.reset();
  const nlohmann::json j = to_json(c);
  EXPECT_FALSE(j.contains("ab"));
  EXPECT_FALSE(case_from_json(j).ab);
}

}  // namespace
}  // namespace perfgate
