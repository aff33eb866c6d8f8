#pragma once
// A buffer with its memory. Device-local buffers hold a case's data (storage buffers the
// shaders bind, also transfer source and destination); host-visible ones stage uploads and
// readbacks and stay mapped.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

namespace perfgate::vk {

class Context;

enum class MemoryUse { device_local, staging };

class Buffer {
 public:
  // `bytes` must not exceed the device's maxMemoryAllocationSize (checked, Error otherwise).
  Buffer(const Context& context, std::uint64_t bytes, MemoryUse use, std::string name);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  std::uint64_t bytes() const { return bytes_; }
  const std::string& name() const { return name_; }
  // The mapped memory of a staging buffer (host-coherent), nullptr for device-local ones.
  void* mapped() const { return mapped_; }

 private:
  const Context& context_;
  std::string name_;
  std::uint64_t bytes_ = 0;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* mapped_ = nullptr;
};

}  // namespace perfgate::vk
