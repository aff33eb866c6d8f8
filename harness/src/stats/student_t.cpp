#include "stats/student_t.h"

#include <cmath>
#include <limits>

namespace perfgate {
namespace {

// The continued fraction of the regularized incomplete beta I_x(a, b) (modified Lentz), which
// converges fast for x < (a + 1) / (a + b + 2).
double incomplete_beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::fabs(d) < tiny ? tiny : d);
  double f = d;
  for (int m = 1; m < 500; ++m) {
    for (int half = 0; half < 2; ++half) {
      const double coefficient = half == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                           : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + coefficient * d;
      d = 1 / (std::fabs(d) < tiny ? tiny : d);
      c = 1 + coefficient / c;
      if (std::fabs(c) < tiny) c = tiny;
      f *= c * d;
      if (half == 1 && std::fabs(c * d - 1) < 1e-15) return f;
    }
  }
  return f;
}

// I_x(a, b); the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) covers where the fraction is slow.
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * incomplete_beta_fraction(a, b, x) / a;
  return 1 - front * incomplete_beta_fraction(b, a, 1 - x) / b;
}

}  // namespace

double student_t_p(double t, double df) {
  if (!std::isfinite(t)) return 0;
  return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double student_t_quantile(double p, double df) {
  if (!(df > 0) || !(p > 0 && p < 1)) return std::numeric_limits<double>::quiet_NaN();
  double low = 0, high = 1;
  while (student_t_p(high, df) > p && high < 1e12) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double mid = (low + high) / 2;
    (student_t_p(mid, df) > p ? low : high) = mid;
  }
  return (low + high) / 2;
}

}  // namespace perfgate
