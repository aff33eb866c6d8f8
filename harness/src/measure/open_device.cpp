#include "measure/device.h"

namespace perfgate {

#ifndef PERFGATE_HAS_VULKAN
std::unique_ptr<Device> open_vulkan_device(const std::string&) {
  throw NoDevice{"perfgate was built without Vulkan (PERFGATE_VULKAN=OFF)"};
}

std::vector<GpuListing> list_vulkan_gpus(const std::string&) {
  throw NoDevice{"perfgate was built without Vulkan (PERFGATE_VULKAN=OFF)"};
}
#endif

std::unique_ptr<Device> open_device(Backend backend, const std::string& selector) {
  return backend == Backend::cpu ? open_cpu_device() : open_vulkan_device(selector);
}

}  // namespace perfgate
