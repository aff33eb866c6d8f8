// GPU timestamps: monotone, non-zero, scaled by the device's period; batch timings consistent
// with the host's. Timings themselves are never asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "perfgate/registry.h"
#include "vulkan/vulkan_fixture.h"

#ifdef PERFGATE_HAS_VULKAN
#include "vulkan/buffer.h"
#include "vulkan/context.h"
#include "vulkan/pipeline.h"
#include "vulkan/query_pool.h"
#include "vulkan/sequence.h"
#endif

namespace perfgate {
namespace {

#ifdef PERFGATE_HAS_VULKAN
TEST(VulkanTimestamps, MonotoneNonZeroAndScaledByThePeriod) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  vk::Context context("");
  const std::uint32_t n = 1 << 16;
  vk::Buffer a(context, 4 * n, vk::MemoryUse::device_local, "a");
  vk::Buffer b(context, 4 * n, vk::MemoryUse::device_local, "b");
  vk::Pipeline copy(context, "copy/copy", find_shader("copy/copy"), {{0, 0, &a}, {0, 1, &b}},
                    {SpecConstant::of(0, 64u), SpecConstant::of(1, 4u)}, 4);
  vk::TimestampPool pool(context, 4);
  vk::Sequence sequence(context);
  sequence.begin();
  sequence.write_timestamp(pool, 0);
  sequence.dispatch(copy, {n}, {64, 1, 1});
  sequence.write_timestamp(pool, 1);
  sequence.dispatch(copy, {n}, {64, 1, 1});
  sequence.write_timestamp(pool, 2);
  sequence.write_timestamp(pool, 3);
  sequence.end();
  pool.reset();
  const double host_ns = sequence.submit_and_wait();
  const auto ticks = pool.ticks(4);

  const std::uint64_t mask = pool.valid_bits() >= 64 ? ~0ull : (1ull << pool.valid_bits()) - 1;
  for (std::size_t i = 0; i < ticks.size(); ++i) EXPECT_NE(ticks[i] & mask, 0u) << "timestamp " << i;
  for (std::size_t i = 1; i < ticks.size(); ++i) {
    EXPECT_GE(ticks[i] & mask, ticks[i - 1] & mask) << "timestamp " << i;  // no wrap in a few ms
    const double raw = static_cast<double>((ticks[i] & mask) - (ticks[i - 1] & mask));
    EXPECT_DOUBLE_EQ(pool.delta_ns(ticks[i - 1], ticks[i]), raw * context.limits().timestampPeriod);
  }
  EXPECT_GT(pool.delta_ns(ticks[0], ticks[2]), 0.0);
  // The GPU's work happened inside the host's submit-to-fence window.
  EXPECT_LE(pool.delta_ns(ticks[0], ticks[3]), host_ns * 1.05 + 1e5);
}
#endif

TEST(VulkanTimestamps, BatchTimingsAreConsistent) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const KernelDef* reduce = find_kernel("reduce");
  ASSERT_NE(reduce, nullptr);
  const Params params({{"n", 1 << 16}, {"wg", 256}});
  Buffers host(reduce->buffer_specs(params));
  Rng rng(3);
  reduce->fill_inputs(params, host, rng);
  auto prepared = device->prepare(*reduce, params, host);
  prepared->upload(host);
  ASSERT_EQ(prepared->stage_names(), (std::vector<std::string>{"partials", "final"}));
  for (bool cold : {false, true}) {
    for (int dispatches : {1, 5}) {
      const BatchTiming t = prepared->time_batch(dispatches, cold);
      SCOPED_TRACE(std::string(cold ? "cold" : "hot") + " x" + std::to_string(dispatches));
      EXPECT_EQ(t.dispatches, dispatches);
      EXPECT_GT(t.device_ns, 0.0);
      EXPECT_GT(t.host_ns, 0.0);
      EXPECT_LE(t.device_ns, t.host_ns * 1.05 + 1e5);
      ASSERT_EQ(t.stage_device_ns.size(), 2u);
      double stages = 0;
      for (double ns : t.stage_device_ns) {
        EXPECT_GT(ns, 0.0);
        stages += ns;
      }
      EXPECT_LE(stages, t.device_ns * 1.001 + 1);  // the stages lie inside the batch
    }
  }
}

// The timer's honesty: over one long batch of copies, GPU time and the host's submit-to-fence
// time are printed side by side (docs/performance.md records them on real GPUs; issue 3 wants
// them within 2%). Only the inequality that always holds is asserted.
TEST(VulkanTimestamps, LongBatchBesideHostTime) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const KernelDef* copy = find_kernel("copy");
  ASSERT_NE(copy, nullptr);
  const std::int64_t n = static_cast<std::int64_t>(
      std::min<std::uint64_t>(1ull << 28, device->limits().max_storage_buffer_range / 4));
  const Params params({{"n", n}, {"wg", 256}});
  Buffers host(copy->buffer_specs(params));
  auto prepared = device->prepare(*copy, params, host);
  prepared->upload(host);
  const double target_ns = device->is_gpu() ? 200e6 : 50e6;
  prepared->time_batch(2, false);  // warm-up
  const double one_ns = prepared->time_batch(2, false).device_ns / 2;
  const int dispatches = static_cast<int>(std::clamp(target_ns / std::max(one_ns, 1.0), 2.0, 10000.0));
  for (int round = 0; round < 3; ++round) {
    const BatchTiming t = prepared->time_batch(dispatches, false);
    const double bytes = 8.0 * static_cast<double>(n) * dispatches;
    std::printf("long batch: %d x copy n=%lld: device %.3f ms, host %.3f ms, device/host %.4f, %.1f GB/s\n",
                dispatches, static_cast<long long>(n), t.device_ns / 1e6, t.host_ns / 1e6,
                t.device_ns / t.host_ns, bytes / t.device_ns);
    EXPECT_LE(t.device_ns, t.host_ns * 1.05 + 1e5);
    RecordProperty("device_over_host_round" + std::to_string(round), std::to_string(t.device_ns / t.host_ns));
  }
}

}  // namespace
}  // namespace perfgate
