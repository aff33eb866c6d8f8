// The shader registry: a shader this build left out (no glslc knows its extensions) is found by
// name with the reason in its place, and is not an embedded shader.
#include "perfgate/registry.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace perfgate {
namespace {

TEST(Registry, LeftOutShaderKeepsItsReason) {
  register_left_out_shader("registry_test/left_out", "no glslc here compiles GL_NV_cooperative_matrix2");
  EXPECT_TRUE(find_shader("registry_test/left_out").empty());
  EXPECT_EQ(left_out_shader_reason("registry_test/left_out"),
            "no glslc here compiles GL_NV_cooperative_matrix2");
  EXPECT_EQ(left_out_shader_reason("registry_test/never_registered"), "");
  const auto all = left_out_shaders();
  EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const auto& entry) {
    return entry.first == "registry_test/left_out" && !entry.second.empty();
  }));
  const auto names = shader_names();
  EXPECT_EQ(std::count(names.begin(), names.end(), "registry_test/left_out"), 0);
}

}  // namespace
}  // namespace perfgate
