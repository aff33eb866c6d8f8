#pragma once
// VkResult at the boundary: every call's result is checked and a failure becomes a
// perfgate::Error that says what failed ("vkAllocateMemory(320 MiB device-local) failed:
// VK_ERROR_OUT_OF_DEVICE_MEMORY").
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace perfgate::vk {

std::string_view result_name(VkResult result);

// Throws perfgate::Error "<what> failed: <VK_...>" unless `result` is VK_SUCCESS.
void check(VkResult result, std::string_view what);

// "320 MiB", "16 KiB", "12 B": sizes in messages.
std::string size_text(std::uint64_t bytes);

}  // namespace perfgate::vk
