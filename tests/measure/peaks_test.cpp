#include "measure/peaks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/sysinfo.h"
#include "measure/device.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("perfgate-peaks-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

}  // namespace

// A cache holding zeros (written by a perfgate command that could not measure a ceiling) is not
// believed: the peaks are measured again and the cache repaired.
TEST(MeasurePeaks, ACacheOfZerosIsMeasuredAgainAndRepaired) {
  auto device = open_device(Backend::cpu, "");
  const fs::path dir = fresh_dir("zeros");
  const fs::path file = dir / ("peaks-cpu-" + device->fingerprint().machine_id + ".json");
  const std::string stamp = perfgate_version() + " " + device->fingerprint().driver_version + " p95";
  std::ofstream(file) << nlohmann::json{{"stamp", stamp}, {"bandwidth_gbps", 0.0}, {"gflops", 0.0}}.dump();

  const DevicePeaks measured = device_peaks(*device, dir);
  EXPECT_GT(measured.peaks.bandwidth_gbps, 0);
  EXPECT_GT(measured.peaks.gflops, 0);
  const nlohmann::json cached = read_json(file);
  // Measured in a busy moment of this machine or not, the next process reads what was written.
  EXPECT_EQ(cached.at("provisional").get<std::string>(), measured.busy_why);
  EXPECT_GT(cached.at("bandwidth_gbps").get<double>(), 0);
  EXPECT_GT(cached.at("gflops").get<double>(), 0);
  EXPECT_EQ(cached.at("bandwidth_gbps").get<double>(), measured.peaks.bandwidth_gbps);

  // And the repaired cache is what the next process reads.
  const DevicePeaks again = device_peaks(*device, dir);
  EXPECT_EQ(again.peaks.bandwidth_gbps, cached.at("bandwidth_gbps").get<double>());
  EXPECT_EQ(again.busy_why, measured.busy_why);
  fs::remove_all(dir);
}

}  // namespace perfgate
