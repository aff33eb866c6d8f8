// Opening a Vulkan device: selection, fingerprint and limits (skipped without a device).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>

#include "core/sysinfo.h"
#include "measure/device.h"
#include "perfgate/registry.h"
#include "vulkan/vulkan_fixture.h"
#ifdef PERFGATE_HAS_VULKAN
#include "vulkan/context.h"
#include "vulkan/pipeline_statistics.h"
#include "vulkan/vulkan_case.h"
#endif

namespace perfgate {
namespace {

TEST(VulkanContext, BestDeviceHasAFingerprint) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const Fingerprint& f = device->fingerprint();
  EXPECT_EQ(device->backend(), Backend::vulkan);
  EXPECT_EQ(f.backend, "vulkan");
  EXPECT_FALSE(f.device_name.empty());
  EXPECT_FALSE(f.machine_id.empty());
  EXPECT_EQ(f.machine_id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"), std::string::npos)
      << f.machine_id;
  if (f.device_name.rfind("llvmpipe", 0) == 0) {
    const std::string tag = cpu_vector_isa_tag();  // the host's vector set, where narrower than AVX-512
    EXPECT_EQ(f.machine_id, tag.empty() ? "llvmpipe" : "llvmpipe-" + tag);
  }
  EXPECT_NE(f.vendor_id, 0u);
  EXPECT_FALSE(f.driver_version.empty());
  EXPECT_EQ(f.api_version.rfind("1.", 0), 0u) << f.api_version;
  EXPECT_EQ(f.device_uuid.size(), 32u);
  EXPECT_FALSE(f.compiler.empty());
  EXPECT_FALSE(f.build_type.empty());
}

TEST(VulkanContext, LimitsComeFromTheDevice) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const DeviceLimits& d = device->limits();
  EXPECT_TRUE(std::has_single_bit(d.subgroup_size)) << d.subgroup_size;
  EXPECT_GE(d.max_workgroup_invocations, 128u);  // the spec's minimum
  EXPECT_GE(d.max_shared_memory_bytes, 16384u);
  EXPECT_GE(d.max_storage_buffer_range, 1u << 27);
  EXPECT_GT(d.max_allocation_bytes, 0u);
  EXPECT_GE(d.compute_units, 1u);
  EXPECT_GT(device->last_level_cache_bytes(), 0u);
}

TEST(VulkanContext, SelectorsByIndexAndName) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const std::string name = device->fingerprint().device_name;
  std::string part = name.substr(0, std::min<std::size_t>(name.size(), 6));
  for (char& c : part) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto by_name = open_vulkan_device(part);  // case-insensitive
  EXPECT_NE(by_name->fingerprint().device_name.find(name.substr(0, 6)), std::string::npos);
  EXPECT_NO_THROW(open_vulkan_device("0"));
  EXPECT_THROW(open_vulkan_device("no-such-device-anywhere"), NoDevice);
  EXPECT_THROW(open_vulkan_device("999"), NoDevice);
}

#ifdef PERFGATE_HAS_VULKAN
TEST(VulkanContext, TimestampsAreUsable) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  vk::Context context("");
  EXPECT_GT(context.limits().timestampPeriod, 0.0f);
  EXPECT_GT(context.info().timestamp_valid_bits, 0u);
  EXPECT_LE(context.info().timestamp_valid_bits, 64u);
  EXPECT_TRUE(context.info().host_query_reset);
}

TEST(VulkanContext, StatisticsReadAsNumbersWhateverTheirFormat) {
  VkPipelineExecutableStatisticKHR s{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
  s.format = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR;
  s.value.b32 = VK_TRUE;
  EXPECT_EQ(vk::statistic_value(s), 1);
  s.format = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR;
  s.value.i64 = -3;
  EXPECT_EQ(vk::statistic_value(s), -3);
  s.format = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR;
  s.value.u64 = 255;
  EXPECT_EQ(vk::statistic_value(s), 255);
  s.format = VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR;
  s.value.f64 = 0.25;
  EXPECT_EQ(vk::statistic_value(s), 0.25);
}

// Where the driver offers VK_KHR_pipeline_executable_properties, every pipeline of a case
// carries its statistics (the NVIDIA driver's register count among them); where not (llvmpipe
// of Mesa 22), none, and the test says so.
TEST(VulkanContext, PipelinesCarryTheDriversStatisticsWhereItOffersThem) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  auto context = std::make_shared<vk::Context>("");
  const KernelDef* reduce = find_kernel("reduce");
  ASSERT_NE(reduce, nullptr);
  const Params params({{"n", 100003}, {"wg", 256}});
  vk::VulkanCase prepared(context, *reduce, params, reduce->buffer_specs(params), context->kernel_limits(),
                          1 << 20);
  const auto statistics = prepared.shader_statistics();
  ASSERT_EQ(statistics.size(), prepared.plan().dispatches.size());
  if (!context->info().pipeline_statistics) {
    for (const auto& s : statistics) EXPECT_TRUE(s.empty());
    GTEST_SKIP() << context->info().name() << " does not offer VK_KHR_pipeline_executable_properties";
  }
  for (const auto& s : statistics) {
    ASSERT_FALSE(s.empty());
    for (const ShaderStatistic& one : s) {
      EXPECT_FALSE(one.name.empty());
      EXPECT_TRUE(std::isfinite(one.value)) << one.name;
      std::printf("%s = %g\n", one.name.c_str(), one.value);
    }
  }
}
#endif

}  // namespace
}  // namespace perfgate
