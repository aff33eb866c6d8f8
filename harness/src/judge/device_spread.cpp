#include "judge/device_spread.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <vector>

#include "stats/chi_squared.h"
#include "stats/run_noise.h"
#include "stats/summary.h"

namespace perfgate {

std::optional<DeviceSpread> spread_between(const std::map<std::string, std::vector<double>>& medians_by_device,
                                           const std::string& whose) {
  if (static_cast<int>(medians_by_device.size()) < kDeviceSpreadDevices) return std::nullopt;
  std::vector<double> levels;
  for (const auto& [device, medians] : medians_by_device)
    if (!medians.empty()) levels.push_back(median(medians));
  if (static_cast<int>(levels.size()) < kDeviceSpreadDevices) return std::nullopt;
  const double centre = median(levels);
  if (!(centre != 0)) return std::nullopt;
  DeviceSpread s;
  s.devices = static_cast<int>(levels.size());
  s.sigma_pct = 100 * summarize(levels).stddev / std::abs(centre);
  s.bound_pct = s.sigma_pct * sigma_upper_factor(s.devices, kSigmaConfidence);
  s.why = fmt::format("the {} {} spread {:.2g}% ({:g}% bound {:.2g}%; more tighten it)", s.devices, whose,
                      s.sigma_pct, 100 * kSigmaConfidence, s.bound_pct);
  return s;
}

std::optional<DeviceSpread> spread_within(const std::map<std::string, std::vector<double>>& medians_by_device) {
  int devices = 0, runs = 0, degrees = 0;
  double squares = 0;  // sum of squared relative deviations from each GPU's own mean
  for (const auto& [device, medians] : medians_by_device) {
    if (medians.size() < 2) continue;
    double mean = 0;
    for (double m : medians) mean += m;
    mean /= static_cast<double>(medians.size());
    if (!(mean != 0)) return std::nullopt;
    for (double m : medians) squares += (m / mean - 1) * (m / mean - 1);
    ++devices;
    runs += static_cast<int>(medians.size());
    degrees += static_cast<int>(medians.size()) - 1;
  }
  if (devices < 2) return std::nullopt;
  DeviceSpread s;
  s.devices = devices;
  s.runs = runs;
  s.sigma_pct = 100 * std::sqrt(squares / degrees);
  s.bound_pct = s.sigma_pct * sigma_upper_factor(degrees + 1, kSigmaConfidence);
  s.why = fmt::format("the {} GPUs of its runs spread {:.2g}% about their own levels ({} runs, {:g}% bound {:.2g}%)",
                      s.devices, s.sigma_pct, s.runs, 100 * kSigmaConfidence, s.bound_pct);
  return s;
}

void allow_pooled_spread(MetricThreshold& threshold,
                         const std::map<std::string, std::map<std::string, std::vector<double>>>& device_run_medians,
                         const std::string& metric, double noise_factor) {
  const auto medians = device_run_medians.find(metric);
  if (medians == device_run_medians.end() || !threshold.relative()) return;
  if (const auto spread = spread_within(medians->second)) {
    threshold.pooled_allowed_pct = noise_factor * spread->bound_pct;
    threshold.pooled_why = spread->why;
  }
}

std::optional<DeviceSpread> device_spread(const BaselineCase& baseline, const std::string& metric) {
  const auto runs = baseline.runs.find(metric);
  if (runs == baseline.runs.end() || runs->second.size() != baseline.run_devices.size()) return std::nullopt;
  return spread_between(medians_by_device(runs->second, baseline.run_devices), "devices of its runs");
}

std::map<std::string, std::vector<double>> medians_by_device(const std::vector<std::vector<double>>& runs,
                                                             const std::vector<std::string>& run_devices) {
  std::map<std::string, std::vector<double>> medians_of;
  for (std::size_t i = 0; i < runs.size() && i < run_devices.size(); ++i)
    if (!runs[i].empty() && !run_devices[i].empty()) medians_of[run_devices[i]].push_back(median(runs[i]));
  return medians_of;
}

}  // namespace perfgate
