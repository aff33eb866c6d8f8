#pragma once
// Opens the best Vulkan device once per test binary, or skips the test when there is none.
#include <gtest/gtest.h>

#include <memory>

#include "measure/device.h"

namespace perfgate::testing {

// The device is never destroyed: at exit, static destructors run after the NVIDIA driver's own
// teardown, and destroying a VkDevice then crashes (seen on an H100, driver 580.159.04).
inline Device* vulkan_device_or_null(std::string* why) {
  static Device* device = nullptr;
  static std::string reason;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      device = open_vulkan_device("").release();
    } catch (const NoDevice& e) {
      reason = e.reason;
    }
  }
  *why = reason;
  return device;
}

}  // namespace perfgate::testing

#define PERFGATE_VULKAN_DEVICE_OR_SKIP(var)                                       \
  std::string var##_why;                                                          \
  ::perfgate::Device* var = ::perfgate::testing::vulkan_device_or_null(&var##_why); \
  if (!var) GTEST_SKIP() << "no Vulkan device: " << var##_why
