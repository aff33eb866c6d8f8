#include "vulkan/vk_error.h"

#include <cstdio>

#include "perfgate/error.h"

namespace perfgate::vk {

std::string_view result_name(VkResult result) {
  switch (result) {
#define PERFGATE_VK_RESULT(name) \
  case name: return #name;
    PERFGATE_VK_RESULT(VK_SUCCESS)
    PERFGATE_VK_RESULT(VK_NOT_READY)
    PERFGATE_VK_RESULT(VK_TIMEOUT)
    PERFGATE_VK_RESULT(VK_EVENT_SET)
    PERFGATE_VK_RESULT(VK_EVENT_RESET)
    PERFGATE_VK_RESULT(VK_INCOMPLETE)
    PERFGATE_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    PERFGATE_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    PERFGATE_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    PERFGATE_VK_RESULT(VK_ERROR_DEVICE_LOST)
    PERFGATE_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    PERFGATE_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    PERFGATE_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    PERFGATE_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    PERFGATE_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    PERFGATE_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    PERFGATE_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    PERFGATE_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    PERFGATE_VK_RESULT(VK_ERROR_UNKNOWN)
    PERFGATE_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    PERFGATE_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    PERFGATE_VK_RESULT(VK_ERROR_FRAGMENTATION)
    PERFGATE_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    PERFGATE_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef PERFGATE_VK_RESULT
    default: return "VkResult(unknown)";
  }
}

void check(VkResult result, std::string_view what) {
  if (result == VK_SUCCESS) return;
  std::string name(result_name(result));
  if (name == "VkResult(unknown)") name = "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
  throw Error(std::string(what) + " failed: " + name);
}

std::string size_text(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0 || value == static_cast<double>(static_cast<std::uint64_t>(value)))
    std::snprintf(text, sizeof text, "%.0f %s", value, units[unit]);
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

}  // namespace perfgate::vk
