#pragma once
// The spread a case has shown on this machine across its gated runs: the history's record of
// the machine's own noise, between processes and between periods (hours, leases, reboots),
// which a proposal's few runs of one period cannot see. Where the history holds enough runs of
// a case, a check's allowance rests on it instead of a class's floor (judge/judge_case.h), and
// says so: what a verdict rests on is measured on the machine it judges.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "judge/device_spread.h"
#include "judge/thresholds.h"
#include "store/history.h"

namespace perfgate {

// Runs a case's series needs before its spread is used: a proposal's five, so the history never
// rests on fewer runs than a baseline does (its bound widens a few runs' spread as a baseline's
// does, stats/chi_squared.h).
inline constexpr int kHistoryNoiseRuns = 5;
// The newest runs it is measured over: the machine's recent record, not its first months.
inline constexpr int kHistoryNoiseWindow = 60;

struct HistoryNoise {
  std::string metric;      // the series: relative_latency where calibrated, else latency_ns
  int runs = 0;            // the newest runs of the series, at most kHistoryNoiseWindow
  double sigma_pct = 0;    // its run-to-run noise (stats/change_points.h, series_noise_pct)
  double bound_pct = 0;    // the 90% upper bound of that sigma from `runs` (stats/chi_squared.h)
  // How far the second-farthest run of the newest segment lies from its median, %: the distance
  // of a second mode the case's runs fall into, which neighbouring differences miss where a mode
  // is kept for several runs in a row (one odd run is not a mode). A check's allowance covers 1.5
  // x it (kModesMargin), as a baseline's runs in separate modes are covered (judge/verdict.cpp).
  double apart_pct = 0;
  std::string why;         // "the history's 12 runs on this machine spread 0.18% (90% bound 0.25%)"
  // The spread between the GPUs the machine's history names (three or more, each the median of
  // its runs), or on a CPU between its hosts: what a check on a GPU or host its baseline's runs
  // never measured is judged with, where the baseline holds no such spread of its own (a CI lent
  // any GPU of a pool, or a fresh VM per job, appends each run).
  std::optional<DeviceSpread> devices;
  // This device's (or on a CPU this host's) gated runs of the case, oldest first, whatever their
  // kernel source: those at its baseline's place this device's level where the baseline's runs
  // measured another (judge/device_level.h).
  std::vector<HistoryPoint> own_runs;
};

inline constexpr double kModesMargin = 1.5;

// The allowance a check is given from `noise` (noise_factor x its bound, or kModesMargin x
// apart_pct where that is larger) and, in `why`, the factor and what it multiplies.
double history_allowed_pct(const HistoryNoise& noise, double noise_factor, std::string* why);

// Per case id, for the cases of `points` (one machine's history) with runs of this device or host
// (`runs` counts them where they are at least kHistoryNoiseRuns, else 0), or runs on
// kDeviceSpreadDevices GPUs or more (then only `devices` speaks). Where `device_uuid` is given,
// only the runs of that device count for its own noise (a host's GPUs each have their own); on a
// CPU (no device) only the runs of `host_id` (each VM of a class has its own level), and the
// history's hosts are what the spread between is measured over (a CI's VMs of one class, each job
// another). Runs that name no device or host (older lines) count as this one's. Throws Error for a
// thresholds problem.
std::map<std::string, HistoryNoise> history_noise(const std::vector<HistoryPoint>& points,
                                                  const ThresholdSet& thresholds, const std::string& device_uuid,
                                                  const std::string& host_id = "");

}  // namespace perfgate
