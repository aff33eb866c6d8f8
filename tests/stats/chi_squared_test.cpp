// The chi-squared distribution against tabulated quantiles, and the upper bound on a standard
// deviation it gives: wide from a few values, narrowing as they accumulate.
#include "stats/chi_squared.h"

#include <gtest/gtest.h>

#include <cmath>

namespace perfgate {
namespace {

TEST(ChiSquared, QuantilesMatchTheTables) {
  // Lower-tail quantiles from the standard tables.
  EXPECT_NEAR(chi_squared_quantile(0.05, 4), 0.7107, 1e-3);
  EXPECT_NEAR(chi_squared_quantile(0.10, 4), 1.0636, 1e-3);
  EXPECT_NEAR(chi_squared_quantile(0.10, 19), 11.651, 1e-2);
  EXPECT_NEAR(chi_squared_quantile(0.95, 1), 3.8415, 1e-3);
  EXPECT_NEAR(chi_squared_quantile(0.99, 30), 50.892, 1e-2);
  EXPECT_NEAR(chi_squared_cdf(chi_squared_quantile(0.3, 7.5), 7.5), 0.3, 1e-9);
  EXPECT_TRUE(std::isnan(chi_squared_quantile(0, 4)));
  EXPECT_TRUE(std::isnan(chi_squared_quantile(0.5, 0)));
}

TEST(ChiSquared, TheSigmaBoundShrinksAsRunsAccumulate) {
  EXPECT_NEAR(sigma_upper_factor(5, 0.9), 1.939, 2e-3);
  EXPECT_NEAR(sigma_upper_factor(20, 0.9), 1.277, 2e-3);
  double previous = sigma_upper_factor(2, 0.9);
  for (int n = 3; n <= 200; ++n) {
    const double factor = sigma_upper_factor(n, 0.9);
    EXPECT_LT(factor, previous) << n;
    EXPECT_GT(factor, 1) << n;
    previous = factor;
  }
  EXPECT_LT(sigma_upper_factor(200, 0.9), 1.1);
  EXPECT_TRUE(std::isnan(sigma_upper_factor(1, 0.9)));
}

}  // namespace
}  // namespace perfgate
