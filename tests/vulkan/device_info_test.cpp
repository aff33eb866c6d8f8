// Fingerprint and timestamp arithmetic of the Vulkan backend: pure functions, no device needed.
#include "vulkan/device_info.h"

#include <gtest/gtest.h>

#include "vulkan/timestamp_ticks.h"

namespace perfgate::vk {
namespace {

TEST(VulkanDeviceInfo, MachineIdDropsParenthesisedDetails) {
  EXPECT_EQ(vulkan_machine_id("llvmpipe (LLVM 15.0.6, 256 bits)"), "llvmpipe");
  EXPECT_EQ(vulkan_machine_id("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(vulkan_machine_id("AMD Radeon RX 7900 XTX (RADV NAVI31)"), "amd-radeon-rx-7900-xtx");
  EXPECT_EQ(vulkan_machine_id("Intel(R) Arc(tm) A770 Graphics (DG2)"), "intel-arc-a770-graphics");
  EXPECT_EQ(vulkan_machine_id("(odd)"), "odd");
  // A device on the host's CPU names the host's vector set where it is narrower than AVX-512;
  // a GPU never does.
  EXPECT_EQ(vulkan_machine_id("llvmpipe (LLVM 15.0.6, 256 bits)", true, "avx2"), "llvmpipe-avx2");
  EXPECT_EQ(vulkan_machine_id("llvmpipe (LLVM 15.0.6, 256 bits)", true, ""), "llvmpipe");
  EXPECT_EQ(vulkan_machine_id("NVIDIA H100 80GB HBM3", false, "avx2"), "nvidia-h100-80gb-hbm3");
}

TEST(VulkanDeviceInfo, NvidiaDriverVersionUsesItsOwnPacking) {
  // 535.104.5.0 packed as 10.8.8.6 bits.
  const std::uint32_t packed = (535u << 22) | (104u << 14) | (5u << 6) | 0u;
  EXPECT_EQ(decode_driver_version(kVendorNvidia, packed), "535.104.5.0");
}

TEST(VulkanDeviceInfo, OtherDriverVersionsUseTheApiPacking) {
  const std::uint32_t packed = (22u << 22) | (3u << 12) | 6u;  // Mesa 22.3.6
  EXPECT_EQ(decode_driver_version(0x10005, packed), "22.3.6");
  EXPECT_EQ(decode_driver_version(kVendorAmd, packed), "22.3.6");
  EXPECT_EQ(decode_api_version((1u << 22) | (3u << 12) | 239u), "1.3.239");
}

TEST(VulkanDeviceInfo, UuidIsLowercaseHex) {
  const std::uint8_t uuid[4] = {0x00, 0xab, 0x10, 0xff};
  EXPECT_EQ(uuid_hex(uuid, 4), "00ab10ff");
}

TEST(VulkanDeviceInfo, LastLevelCacheEstimate) {
  constexpr std::uint64_t MiB = 1ull << 20;
  EXPECT_EQ(
      estimate_last_level_cache_bytes(kVendorNvidia, "NVIDIA H100 80GB HBM3", DeviceKind::discrete_gpu, 0),
      50 * MiB);
  EXPECT_EQ(estimate_last_level_cache_bytes(kVendorAmd, "Some GPU", DeviceKind::discrete_gpu, 0), 64 * MiB);
  EXPECT_EQ(estimate_last_level_cache_bytes(0x10005, "llvmpipe", DeviceKind::cpu, 0), 32 * MiB);
  EXPECT_EQ(estimate_last_level_cache_bytes(0x10005, "llvmpipe", DeviceKind::cpu, 8 * MiB), 8 * MiB);
}

TEST(VulkanTimestampTicks, PeriodIsApplied) {
  EXPECT_DOUBLE_EQ(timestamp_delta_ns(1000, 1100, 64, 1.0), 100.0);
  EXPECT_DOUBLE_EQ(timestamp_delta_ns(1000, 1100, 64, 52.08), 100 * 52.08);
}

TEST(VulkanTimestampTicks, OnlyValidBitsCount) {
  // Garbage above the 36 valid bits is ignored.
  const std::uint64_t high = 0xabcull << 40;
  EXPECT_DOUBLE_EQ(timestamp_delta_ns(high | 10, 25, 36, 1.0), 15.0);
  // A counter that wrapped once between the two timestamps.
  const std::uint64_t top = (1ull << 36) - 5;
  EXPECT_DOUBLE_EQ(timestamp_delta_ns(top, 7, 36, 2.0), 24.0);
  EXPECT_EQ(timestamp_mask(64), ~0ull);
  EXPECT_EQ(timestamp_mask(36), (1ull << 36) - 1);
}

}  // namespace
}  // namespace perfgate::vk
