#include "vulkan/buffer.h"

#include "perfgate/error.h"
#include "vulkan/context.h"
#include "vulkan/vk_error.h"

namespace perfgate::vk {

Buffer::Buffer(const Context& context, std::uint64_t bytes, MemoryUse use, std::string name)
    : context_(context), name_(std::move(name)), bytes_(bytes) {
  const char* kind = use == MemoryUse::device_local ? "device-local" : "host-visible";
  const std::string what = "(" + size_text(bytes) + " " + kind + ", buffer " + name_ + ")";
  if (bytes == 0) throw Error("buffer " + name_ + " has no bytes");
  const std::uint64_t max_allocation = context.info().maintenance3.maxMemoryAllocationSize;
  if (max_allocation > 0 && bytes > max_allocation)
    throw Error("buffer " + name_ + " needs " + size_text(bytes) +
                ", over this device's maxMemoryAllocationSize (" + size_text(max_allocation) + ")");

  VkBufferCreateInfo create{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  create.size = bytes;
  create.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (use == MemoryUse::device_local) create.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  create.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  const VkDevice device = context.device();
  check(vkCreateBuffer(device, &create, nullptr, &buffer_), "vkCreateBuffer" + what);

  try {
    VkMemoryRequirements needs{};
    vkGetBufferMemoryRequirements(device, buffer_, &needs);
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = needs.size;
    // Readbacks are much faster from cached host memory; uploads do not mind it.
    allocate.memoryTypeIndex =
        use == MemoryUse::device_local
            ? context.memory_type(needs.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0)
            : context.memory_type(needs.memoryTypeBits,
                                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                  VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    check(vkAllocateMemory(device, &allocate, nullptr, &memory_), "vkAllocateMemory" + what);
    check(vkBindBufferMemory(device, buffer_, memory_, 0), "vkBindBufferMemory" + what);
    if (use == MemoryUse::staging)
      check(vkMapMemory(device, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory" + what);
  } catch (...) {
    if (memory_) vkFreeMemory(device, memory_, nullptr);
    vkDestroyBuffer(device, buffer_, nullptr);
    throw;
  }
}

Buffer::~Buffer() {
  const VkDevice device = context_.device();
  if (mapped_) vkUnmapMemory(device, memory_);
  vkDestroyBuffer(device, buffer_, nullptr);
  vkFreeMemory(device, memory_, nullptr);
}

}  // namespace perfgate::vk
