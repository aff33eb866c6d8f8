#pragma once
// Opens the best Vulkan device once per test binary, or skips the test when there is none.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "measure/device.h"

namespace perfgate::testing {

struct SharedVulkanDevice {
  std::unique_ptr<Device> device;
  std::string reason;
  bool tried = false;
};

inline SharedVulkanDevice& shared_vulkan_device() {
  static SharedVulkanDevice shared;
  return shared;
}

// Closes the shared device when the tests end, before exit: the NVIDIA driver tears itself down
// in an atexit handler, and a VkDevice destroyed by a static destructor after it, or left alive,
// crashes the process at exit (seen on an H100, driver 580.159.04).
class VulkanDeviceEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { shared_vulkan_device().device.reset(); }
};

inline ::testing::Environment* const vulkan_device_environment =
    ::testing::AddGlobalTestEnvironment(new VulkanDeviceEnvironment);

inline Device* vulkan_device_or_null(std::string* why) {
  SharedVulkanDevice& shared = shared_vulkan_device();
  if (!shared.tried) {
    shared.tried = true;
    try {
      shared.device = open_vulkan_device("");
    } catch (const NoDevice& e) {
      shared.reason = e.reason;
    }
  }
  *why = shared.reason;
  return shared.device.get();
}

}  // namespace perfgate::testing

#define PERFGATE_VULKAN_DEVICE_OR_SKIP(var)                                         \
  std::string var##_why;                                                            \
  ::perfgate::Device* var = ::perfgate::testing::vulkan_device_or_null(&var##_why); \
  if (!var) GTEST_SKIP() << "no Vulkan device: " << var##_why
