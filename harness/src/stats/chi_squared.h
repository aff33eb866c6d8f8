#pragma once
// The chi-squared distribution: what an upper confidence bound on a standard deviation from a
// few runs asks of it (stats/run_noise.h), computed once here.

namespace perfgate {

// P(X <= x) for X chi-squared with `df` degrees of freedom (df > 0, may be fractional).
double chi_squared_cdf(double x, double df);

// The x with P(X <= x) = p (0 < p < 1): the inverse of chi_squared_cdf. NaN for df <= 0 or p
// outside (0, 1).
double chi_squared_quantile(double p, double df);

// How much larger than the sample standard deviation of n values the true one may be, at
// one-sided confidence `confidence`: sqrt((n - 1) / chi2_{1 - confidence}(n - 1)). Five values
// give 1.94 at 90%, twenty 1.28: the factor by which a few runs' spread is widened before it
// becomes an allowance, shrinking as runs accumulate. NaN for n < 2.
double sigma_upper_factor(int n, double confidence);

}  // namespace perfgate
