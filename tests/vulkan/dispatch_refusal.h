#pragma once
// Why check_dispatch refuses a dispatch against its embedded shader's SPIR-V, or "" when it does not.
#include <string>

#include "perfgate/error.h"
#include "perfgate/registry.h"
#include "vulkan/shader_interface.h"

namespace perfgate::testing {

inline std::string dispatch_refusal(const std::string& kernel, const Dispatch& d) {
  try {
    vk::check_dispatch(kernel, d, vk::reflect_shader(d.shader, find_shader(d.shader)));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace perfgate::testing
