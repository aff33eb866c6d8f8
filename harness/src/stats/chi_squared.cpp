#include "stats/chi_squared.h"

#include <cmath>
#include <limits>

namespace perfgate {
namespace {

// The regularized lower incomplete gamma P(a, x): its power series where it converges fast
// (x < a + 1), else 1 minus the continued fraction of the upper one (modified Lentz).
double lower_incomplete_gamma(double a, double x) {
  if (x <= 0) return 0;
  const double front = std::exp(a * std::log(x) - x - std::lgamma(a));
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 1000 && std::fabs(term) > 1e-16 * std::fabs(sum); ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return front * sum;
  }
  constexpr double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, f = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = 1 / (std::fabs(d) < tiny ? tiny : d);
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    f *= c * d;
    if (std::fabs(c * d - 1) < 1e-15) break;
  }
  return 1 - front * f;
}

}  // namespace

double chi_squared_cdf(double x, double df) { return lower_incomplete_gamma(df / 2, x / 2); }

double chi_squared_quantile(double p, double df) {
  if (!(df > 0) || !(p > 0 && p < 1)) return std::numeric_limits<double>::quiet_NaN();
  double low = 0, high = df + 1;
  while (chi_squared_cdf(high, df) < p && high < 1e12) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-13 * high; ++i) {
    const double mid = (low + high) / 2;
    (chi_squared_cdf(mid, df) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}

double sigma_upper_factor(int n, double confidence) {
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  const double df = n - 1;
  return std::sqrt(df / chi_squared_quantile(1 - confidence, df));
}

}  // namespace perfgate
