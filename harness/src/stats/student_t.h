#pragma once
// Student's t distribution: what the history's change points and the run's geometric mean ask
// of it, computed once here.

namespace perfgate {

// Two-sided p-value of Student's t with `df` degrees of freedom (df may be fractional):
// P(|T| >= |t|).
double student_t_p(double t, double df);

// The t with two-sided p-value `p` (0 < p < 1): the inverse of student_t_p. NaN for df <= 0 or
// p outside (0, 1).
double student_t_quantile(double p, double df);

}  // namespace perfgate
