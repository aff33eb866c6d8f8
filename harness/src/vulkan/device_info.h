#pragma once
// What identifies a Vulkan device in a fingerprint, as pure functions of the values the driver
// reports (no Vulkan headers here, so tests of them build without Vulkan).
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/sysinfo.h"

namespace perfgate::vk {

inline constexpr std::uint32_t kVendorNvidia = 0x10de;
inline constexpr std::uint32_t kVendorAmd = 0x1002;
inline constexpr std::uint32_t kVendorIntel = 0x8086;

// The machine id of a Vulkan device: its name without parenthesised details (driver, LLVM
// version, SIMD width), slugified: "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3",
// "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe", "AMD Radeon RX 7900 XTX (RADV NAVI31)" ->
// "amd-radeon-rx-7900-xtx".
inline std::string vulkan_machine_id(std::string_view device_name) {
  std::string kept;
  int depth = 0;
  for (char c : device_name) {
    if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth > 0) --depth;
      kept += ' ';
    } else if (depth == 0) {
      kept += c;
    }
  }
  std::string slug = slugify(kept);
  return slug.empty() ? slugify(device_name) : slug;
}

// The machine id of a device implemented on the host's CPU (llvmpipe): its JIT compiles shaders
// for the host's vector instructions, so it names them as a CPU machine does where they are
// narrower than AVX-512 ("llvmpipe-avx2"; core/sysinfo.h). On a Zen 3 VM 8 of 39 llvmpipe cases
// ran 2-12x their baselines from a Zen 4 VM, both calling themselves "AMD EPYC".
inline std::string vulkan_machine_id(std::string_view device_name, bool on_cpu, std::string_view isa_tag) {
  std::string id = vulkan_machine_id(device_name);
  if (on_cpu && !isa_tag.empty()) id += "-" + std::string(isa_tag);
  return id;
}

// VkPhysicalDeviceProperties::driverVersion decoded per vendor. NVIDIA packs 10.8.8.6 bits;
// the others (Mesa included) follow VK_MAKE_API_VERSION's 7.10.12 (variant bits ignored).
inline std::string decode_driver_version(std::uint32_t vendor_id, std::uint32_t version) {
  char text[48];
  if (vendor_id == kVendorNvidia) {
    std::snprintf(text, sizeof text, "%u.%u.%u.%u", (version >> 22) & 0x3ffu, (version >> 14) & 0xffu,
                  (version >> 6) & 0xffu, version & 0x3fu);
  } else {
    std::snprintf(text, sizeof text, "%u.%u.%u", (version >> 22) & 0x7fu, (version >> 12) & 0x3ffu,
                  version & 0xfffu);
  }
  return text;
}

inline std::string decode_api_version(std::uint32_t version) {
  char text[32];
  std::snprintf(text, sizeof text, "%u.%u.%u", (version >> 22) & 0x7fu, (version >> 12) & 0x3ffu,
                version & 0xfffu);
  return text;
}

inline std::string uuid_hex(const std::uint8_t* uuid, std::size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (std::size_t i = 0; i < size; ++i) {
    hex += digits[uuid[i] >> 4];
    hex += digits[uuid[i] & 0xf];
  }
  return hex;
}

enum class DeviceKind { discrete_gpu, integrated_gpu, virtual_gpu, cpu, other };

// Vulkan reports no cache sizes: the last-level cache is estimated from the vendor and name
// (datasheets), else by kind. Cold runs flush twice this much.
inline std::uint64_t estimate_last_level_cache_bytes(std::uint32_t vendor_id, std::string_view device_name,
                                                     DeviceKind kind, std::uint64_t host_cache_bytes) {
  constexpr std::uint64_t MiB = 1ull << 20;
  const std::string id = vulkan_machine_id(device_name);
  auto has = [&](std::string_view part) { return id.find(part) != std::string::npos; };
  if (kind == DeviceKind::cpu) return host_cache_bytes > 0 ? host_cache_bytes : 32 * MiB;
  if (vendor_id == kVendorNvidia) {
    if (has("h100") || has("h200") || has("h800") || has("gh200")) return 50 * MiB;
    if (has("a100") || has("a800")) return 40 * MiB;
    if (has("rtx-4090")) return 72 * MiB;
    if (has("l40")) return 96 * MiB;
  }
  if (kind == DeviceKind::integrated_gpu) return 32 * MiB;
  return 64 * MiB;
}

}  // namespace perfgate::vk
