// The stored-baseline source times each check as its baseline was timed: against the reference
// its baseline names, or alone where the baseline was timed alone. Real measurements of a small
// CPU copy; no timing is asserted.
#include "gate/stored_measurement.h"

#include <gtest/gtest.h>

#include "core/atomic_file.h"
#include "gate/gate.h"
#include "perfgate/metric_names.h"
#include "perfgate/registry.h"
#include "store/baseline_file.h"
#include "store/store_fixture.h"

namespace perfgate {
namespace {

using StoredSourceTest = testing::StoreTest;

constexpr const char* kQuickCalibrated = R"(defaults:
  sampling: {min_samples: 3, max_samples: 5, min_time_s: 0, timeout_s: 60, warmup_s: 0,
             batch_min_time_ms: 0.1, calibrate: true}
  metrics:
    latency_ns: {direction: lower, max_regression_pct: 900}
)";

CaseSpec copy_case(std::int64_t n) {
  const KernelDef* copy = find_kernel("copy");
  Params params({{"n", n}});
  return {copy, Backend::cpu, params, case_id("copy", Backend::cpu, params)};
}

TEST_F(StoredSourceTest, ACheckIsTimedAsItsBaselineWas) {
  auto device = open_cpu_device();
  const std::string machine = device->fingerprint().machine_id;
  // A baseline from before calibration (raw times only), and a calibrated one.
  BaselineCase alone = testing::baseline_case(copy_case(65536).id, 20000);
  BaselineCase calibrated = testing::baseline_case(copy_case(32768).id, 10000);
  calibrated.runs[metric::relative_latency] = {{1.0, 1.01}, {0.99, 1.0}, {1.0, 1.02}};
  for (BaselineCase* c : {&alone, &calibrated}) c->fingerprint.machine_id = machine;
  const BaselineStore store(dir_);
  write_file_atomically(store.kernel_file(machine, "copy"), to_yaml({machine, "copy", {calibrated, alone}}));
  const ThresholdSet thresholds = ThresholdSet::from_yaml_text(kQuickCalibrated, "quick.yaml");
  StoredSource source(*device, thresholds, &store, Peaks{10, 100});

  const CaseResult raw = Gate(source, 42).run(copy_case(65536));
  EXPECT_TRUE(raw.calibration_reference.empty()) << raw.calibration_reference;
  EXPECT_FALSE(raw.metrics.count(metric::relative_latency));
  EXPECT_TRUE(raw.metrics.count(metric::latency_ns));

  const CaseResult relative = Gate(source, 42).run(copy_case(32768));
  EXPECT_FALSE(relative.calibration_reference.empty());
  EXPECT_TRUE(relative.metrics.count(metric::relative_latency));
}

}  // namespace
}  // namespace perfgate
