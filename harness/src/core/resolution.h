#pragma once
// A judged case's resolution, said the same way by every printer: the smallest change it can
// fail on, on this machine, and why ("2.0% floor", "3.4% noise", "16% unstable").
#include <string>

#include "perfgate/result.h"

namespace perfgate {

// How far identical code may read from the level judged against, %, where that level may lie
// within bound_pct of this device's and its runs scatter within allowance_pct: the two combined
// in quadrature, in log terms (a ratio of 1.5 and one of 1.45 reach 1.73, not their product
// 2.18). Each is a move identical code reaches only at its extreme (the bound, how far devices'
// or periods' whole checks were seen to move, their own runs' noise in them; the allowance,
// noise_factor x an upper bound of sigma), and two independent sources reach their extremes
// together more rarely than either; it is never below the larger of the two. docs/measuring.md
// ("A device's level") gives the detection study this rests on. A judgement with a bound
// (judge/verdict.h) fails on a change past it, so that is its resolution.
double level_and_noise_reach_pct(double bound_pct, double allowance_pct);
// The smallest change a judgement fails on: its allowance, and where its level is bounded
// (judge/device_level.h) what the bound and the allowance reach together.
double catches_pct(const Judgement& judgement);

// "2.0% floor", "16% unstable": an allowance and where it comes from.
std::string resolution_text(double allowed_pct, const std::string& source);
// The same for a judgement; empty for one without a relative allowance.
std::string resolution_text(const Judgement& judgement);
// The case's latency judgement's resolution (else its first judgement's); empty when unjudged.
std::string case_resolution(const CaseResult& result);
// One line for a run: "this gate catches >= 2.0% (median over 33 judged cases; 3 from noise,
// 1 unstable) on nvidia-h100-80gb-hbm3", and where allowances followed the load of a shared
// machine "; busy machine: 2 cases allowed more than on a quiet one"; empty when nothing was
// judged against a baseline.
std::string run_resolution(const RunResult& run);
// The same in brief, for a column heading: "catches >= 2.0%"; empty when nothing was judged.
std::string run_resolution_brief(const RunResult& run);

}  // namespace perfgate
