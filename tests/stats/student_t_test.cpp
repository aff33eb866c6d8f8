#include "stats/student_t.h"

#include <gtest/gtest.h>

#include <cmath>

namespace perfgate {
namespace {

TEST(StatsStudentT, TwoSidedPValuesMatchKnownValues) {
  // scipy.stats.t.sf(2.0, 10) * 2 = 0.0733880.
  EXPECT_NEAR(student_t_p(2.0, 10), 0.0733880, 1e-6);
  EXPECT_NEAR(student_t_p(-2.0, 10), 0.0733880, 1e-6);
  EXPECT_NEAR(student_t_p(0, 7), 1.0, 1e-12);
  EXPECT_EQ(student_t_p(INFINITY, 3), 0);
}

TEST(StatsStudentT, QuantilesMatchTheTables) {
  EXPECT_NEAR(student_t_quantile(0.0733880, 10), 2.0, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 1e6), 1.959964, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 1), 12.7062, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.05, 10), 2.2281, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.01, 5), 4.0321, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.05, 1000), 1.9623, 1e-3);
  EXPECT_NEAR(student_t_p(3.0, 4.5), 0.0343809, 1e-6);  // fractional df (Welch): numerical integral
  EXPECT_NEAR(student_t_quantile(0.0343809, 4.5), 3.0, 1e-4);
}

TEST(StatsStudentT, QuantilesOutsideTheirDomainAreNotANumber) {
  EXPECT_TRUE(std::isnan(student_t_quantile(0.05, 0)));
  EXPECT_TRUE(std::isnan(student_t_quantile(0, 10)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1, 10)));
}

}  // namespace
}  // namespace perfgate
