#pragma once
// The Vulkan context: instance, the chosen physical device, a logical device with one compute
// queue, and what the device reports (limits, subgroups, driver, timestamps). It owns them and
// destroys them last; buffers, pipelines and sequences hold a reference to it.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "perfgate/kernel.h"
#include "perfgate/result.h"
#include "vulkan/device_features.h"
#include "vulkan/device_info.h"
#include "vulkan/matrix_features.h"

namespace perfgate::vk {

// What one physical device reports, gathered once.
struct PhysicalDeviceInfo {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  int index = 0;  // position in vkEnumeratePhysicalDevices, what `--device N` selects
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceSubgroupProperties subgroup{};
  VkPhysicalDeviceMaintenance3Properties maintenance3{};
  VkPhysicalDeviceDriverProperties driver{};
  bool has_driver_properties = false;
  VkPhysicalDeviceMemoryProperties memory{};
  bool host_query_reset = false;
  bool integer_dot_product = false;           // VK_KHR_shader_integer_dot_product, enabled
  DeviceFeatures features;                    // what shaders may need; all of it is enabled
  bool cooperative_matrix_f16 = false;        // VK_NV_cooperative_matrix 16x16x16 f16 -> f32, enabled
  MatrixFeatures matrix;                      // VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix2, enabled
  bool pipeline_statistics = false;           // VK_KHR_pipeline_executable_properties, enabled
  std::uint32_t compute_family = UINT32_MAX;  // UINT32_MAX: no compute queue with timestamps
  std::uint32_t timestamp_valid_bits = 0;
  std::uint32_t multiprocessors = 0;  // NVIDIA SMs or AMD CUs when the driver says

  std::string name() const { return properties.deviceName; }
  DeviceKind kind() const;
  // Why perfgate cannot use this device, or "" when it can.
  std::string unusable_reason() const;
};

// One physical device as a listing shows it: what `--device N` selects and how it ranks.
struct DeviceListing {
  int index = 0;
  std::string name;
  std::string device_uuid;  // hex, as in the fingerprint
  DeviceKind kind = DeviceKind::other;
  std::string unusable_reason;  // "" when perfgate can use it
};
// Every physical device the loader enumerates, in index order; throws NoDevice without a
// Vulkan loader or driver.
std::vector<DeviceListing> list_devices();
// Lower is better: the order `Context("")` picks device kinds in.
int kind_rank(DeviceKind kind);

class Context {
 public:
  // `selector`: "" picks the best device (discrete GPU, then integrated, virtual, CPU), digits
  // an index, anything else a case-insensitive substring of the name. Throws NoDevice when no
  // Vulkan driver or no matching usable device is present, Error when a call fails.
  explicit Context(const std::string& selector);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  std::uint32_t queue_family() const { return info_.compute_family; }
  const PhysicalDeviceInfo& info() const { return info_; }
  const VkPhysicalDeviceLimits& limits() const { return info_.properties.limits; }

  DeviceLimits kernel_limits() const;
  Fingerprint fingerprint() const;
  std::uint64_t last_level_cache_bytes() const;
  // Total size of the device-local heaps.
  std::uint64_t device_local_bytes() const;
  // A memory type index with all of `required` flags (and `preferred` ones when possible)
  // among `type_bits`; throws Error when none fits.
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred) const;

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  PhysicalDeviceInfo info_;
};

}  // namespace perfgate::vk
