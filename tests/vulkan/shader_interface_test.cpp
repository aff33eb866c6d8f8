// A dispatch checked against its shader's SPIR-V (SPIRV-Cross reflection), with no device: the
// suite's own shaders reflect as written, and each plan mistake is refused naming the shader and
// the offset or binding.
#include <gtest/gtest.h>

#ifdef PERFGATE_HAS_VULKAN
#include <algorithm>

#include "perfgate/error.h"
#include "perfgate/registry.h"
#include "vulkan/device_features.h"
#include "vulkan/dispatch_refusal.h"
#include "vulkan/shader_interface.h"

namespace perfgate {
namespace {

Dispatch copy_dispatch() { return Dispatch{"copy/copy", {"a", "b"}, {256, 4}, {1024}, {1, 1, 1}, "copy"}; }

std::string refusal(const Dispatch& d) { return testing::dispatch_refusal("copy", d); }

// A device with every feature but workgroup-scope matrices (VK_NV_cooperative_matrix2).
vk::DeviceFeatures all_but_workgroup_matrices() {
  return {true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, true, 0xffu};
}

// The shader lacks only VK_NV_cooperative_matrix2 there, named, and nothing once it is given.
void expect_matrix2_is_all_it_lacks(const vk::ShaderInterface& shader, vk::DeviceFeatures& device) {
  const auto missing = vk::missing_features(shader, device);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_NE(missing[0].find("VK_NV_cooperative_matrix2"), std::string::npos) << missing[0];
  device.cooperative_matrix_workgroup = true;
  EXPECT_TRUE(vk::missing_features(shader, device).empty());
}

TEST(VulkanShaderInterface, ReflectsTheCopyShader) {
  const vk::ShaderInterface copy = vk::reflect_shader("copy/copy", find_shader("copy/copy"));
  EXPECT_EQ(copy.push_constant_bytes, 4u);
  ASSERT_EQ(copy.bindings.size(), 2u);
  EXPECT_EQ(copy.bindings[0].set, 0u);
  EXPECT_EQ(copy.bindings[0].binding, 0u);
  EXPECT_EQ(copy.bindings[1].binding, 1u);
  EXPECT_EQ(refusal(copy_dispatch()), "");
  // local_size_x_id = 0: the workgroup size is the dispatch's specialization word 0.
  EXPECT_EQ(copy.local_size_constant[0], 0);
  Dispatch wider = copy_dispatch();
  wider.specialization = {512, 4};
  EXPECT_EQ(copy.local_size_with(wider.all_constants()), (std::array<std::uint32_t, 3>{512, 1, 1}));
}

// A shader compiled for SPIR-V 1.6 (the matrix shaders' glslc, --target-env=vulkan1.3) sizes its
// workgroup with LocalSizeId: local_size_x_id = 0 is still the dispatch's word 0.
TEST(VulkanShaderInterface, ReflectsAWorkgroupSizedByConstantIds) {
  const auto spirv = find_shader("matmul_f16/matmul_f16_tensor");
  if (spirv.empty())
    GTEST_SKIP() << "this build has no VK_NV_cooperative_matrix2 shaders (no glslc for them)";
  const vk::ShaderInterface tensor = vk::reflect_shader("matmul_f16/matmul_f16_tensor", spirv);
  EXPECT_EQ(tensor.local_size_constant[0], 0);
  EXPECT_EQ(tensor.local_size_constant[1], -1);
  EXPECT_EQ(tensor.local_size[1], 1u);
  EXPECT_EQ(tensor.local_size_with({SpecConstant::of(0, 256u)}), (std::array<std::uint32_t, 3>{256, 1, 1}));
}

// A module this SPIRV-Cross cannot parse (VK_NV_cooperative_matrix opcodes, SPIR-V 1.5 from
// Debian 12's glslc) still gives its workgroup size: a BuiltIn WorkgroupSize composite whose x
// is local_size_x_id = 0.
TEST(VulkanShaderInterface, ReflectsTheWorkgroupSizeOfAModuleItCannotParse) {
  const vk::ShaderInterface fragments =
      vk::reflect_shader("matmul_f16/matmul_f16_coopmat", find_shader("matmul_f16/matmul_f16_coopmat"));
  ASSERT_FALSE(fragments.unreadable.empty());
  EXPECT_EQ(fragments.local_size_constant[0], 0);
  EXPECT_EQ(fragments.local_size_with({SpecConstant::of(0, 128u)}),
            (std::array<std::uint32_t, 3>{128, 1, 1}));
}

TEST(VulkanShaderInterface, AShortPushConstantRangeIsRefused) {
  Dispatch d = copy_dispatch();
  d.push_constants.clear();
  const std::string message = refusal(d);
  EXPECT_NE(message.find("shader 'copy/copy'"), std::string::npos) << message;
  EXPECT_NE(message.find("is 4 bytes, the dispatch gives 0 (offset 0"), std::string::npos) << message;
}

TEST(VulkanShaderInterface, AMissingBindingIsRefused) {
  Dispatch d = copy_dispatch();
  d.bindings = {"a"};
  const std::string message = refusal(d);
  EXPECT_NE(message.find("shader 'copy/copy'"), std::string::npos) << message;
  EXPECT_NE(message.find("binding 1 of set 0"), std::string::npos) << message;
}

TEST(VulkanShaderInterface, BrokenSpirvNamesTheShader) {
  const std::uint32_t junk[] = {1, 2, 3, 4, 5, 6};
  try {
    vk::reflect_shader("junk/junk", junk);
    FAIL() << "junk SPIR-V was reflected";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shader 'junk/junk'"), std::string::npos) << e.what();
  }
}

// A shader declaring 16-bit storage and subgroup arithmetic, on a device without them: both
// named, by their Vulkan names; with them, nothing.
TEST(VulkanShaderInterface, CapabilitiesTheDeviceLacksAreNamed) {
  vk::ShaderInterface shader;
  shader.capabilities = {1 /* Shader */, 4433 /* StorageBuffer16BitAccess */,
                         63 /* GroupNonUniformArithmetic */};
  const auto missing = vk::missing_features(shader, vk::DeviceFeatures{});
  ASSERT_EQ(missing.size(), 2u);
  EXPECT_EQ(missing[0], "storageBuffer16BitAccess");
  EXPECT_EQ(missing[1], "subgroup arithmetic");
  vk::DeviceFeatures device;
  device.storage_buffer_16bit = true;
  device.subgroup_operations = 0xff;
  EXPECT_TRUE(vk::missing_features(shader, device).empty());
}

// Every shader of the suite reflects, and needs nothing beyond what perfgate knows to enable.
TEST(VulkanShaderInterface, EverySuiteShaderReflects) {
  vk::DeviceFeatures everything{true, true, true, true, true, true, true, true, true,
                                true, true, true, true, true, true, true, 0xffu};
  for (const auto& name : shader_names()) {
    const vk::ShaderInterface shader = vk::reflect_shader(name, find_shader(name));
    // Only the cooperative-matrix shaders (NV or KHR) use opcodes Debian 12's SPIRV-Cross
    // predates; their capabilities are still read.
    const auto& caps = shader.capabilities;
    const bool matrix = std::find(caps.begin(), caps.end(), 5357u) != caps.end() ||  // CooperativeMatrixNV
                        std::find(caps.begin(), caps.end(), 6022u) != caps.end();    // CooperativeMatrixKHR
    if (!shader.unreadable.empty()) {
      EXPECT_TRUE(matrix) << name << ": " << shader.unreadable;
    }
    EXPECT_FALSE(caps.empty()) << name;
    EXPECT_TRUE(vk::missing_features(shader, everything).empty()) << name;
  }
}

// The workgroup-scope matrix shaders (GL_NV_cooperative_matrix2) declare capabilities newer than
// this SPIRV-Cross: they are read from the module's words, and a device without the extension is
// told which one it lacks.
TEST(VulkanShaderInterface, MatrixShadersNameTheExtensionTheyNeed) {
  const std::string name = "tensor_peak_workgroup/tensor_peak_workgroup";
  if (find_shader(name).empty()) {
    EXPECT_NE(left_out_shader_reason(name).find("GL_NV_cooperative_matrix2"), std::string::npos);
    GTEST_SKIP() << name << " is not in this build: " << left_out_shader_reason(name);
  }
  const vk::ShaderInterface shader = vk::reflect_shader(name, find_shader(name));
  const auto& caps = shader.capabilities;
  EXPECT_NE(std::find(caps.begin(), caps.end(), 6022u), caps.end());  // CooperativeMatrixKHR
  EXPECT_NE(std::find(caps.begin(), caps.end(), 5439u), caps.end());  // TensorAddressingNV
  vk::DeviceFeatures device = all_but_workgroup_matrices();
  expect_matrix2_is_all_it_lacks(shader, device);
  device.cooperative_matrix_khr = false;
  ASSERT_EQ(vk::missing_features(shader, device).size(), 1u);
  EXPECT_NE(vk::missing_features(shader, device)[0].find("VK_KHR_cooperative_matrix"), std::string::npos);
}

// attention_fused_rows also reduces rows, converts between uses and applies functions per element
// (VK_NV_cooperative_matrix2's other capabilities) on subgroup-scope matrices: a device without
// the extension is told which one it lacks.
TEST(VulkanShaderInterface, MatrixReductionsNameTheExtensionTheyNeed) {
  const std::string name = "attention/attention_fused_rows";
  if (find_shader(name).empty())
    GTEST_SKIP() << name << " is not in this build: " << left_out_shader_reason(name);
  const vk::ShaderInterface shader = vk::reflect_shader(name, find_shader(name));
  const auto& caps = shader.capabilities;
  for (std::uint32_t capability : {5430u, 5431u, 5432u})  // reductions, conversions, per-element
    EXPECT_NE(std::find(caps.begin(), caps.end(), capability), caps.end()) << capability;
  vk::DeviceFeatures device = all_but_workgroup_matrices();
  expect_matrix2_is_all_it_lacks(shader, device);
}

// The bf16 matmul declares bfloat16's capabilities (newer than this SPIRV-Cross too): a device
// without VK_KHR_shader_bfloat16 is told that, and nothing else.
TEST(VulkanShaderInterface, Bfloat16ShadersNameTheExtensionTheyNeed) {
  const std::string name = "matmul_bf16/matmul_bf16_tensor";
  if (find_shader(name).empty()) {
    EXPECT_NE(left_out_shader_reason(name).find("GL_EXT_bfloat16"), std::string::npos);
    GTEST_SKIP() << name << " is not in this build: " << left_out_shader_reason(name);
  }
  const vk::ShaderInterface shader = vk::reflect_shader(name, find_shader(name));
  const auto& caps = shader.capabilities;
  EXPECT_NE(std::find(caps.begin(), caps.end(), 5116u), caps.end());  // BFloat16TypeKHR
  EXPECT_NE(std::find(caps.begin(), caps.end(), 5118u), caps.end());  // BFloat16CooperativeMatrixKHR
  vk::DeviceFeatures device = all_but_workgroup_matrices();
  device.cooperative_matrix_workgroup = true;
  device.bfloat16_matrix = false;
  const auto missing = vk::missing_features(shader, device);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_NE(missing[0].find("VK_KHR_shader_bfloat16"), std::string::npos) << missing[0];
  device.bfloat16_matrix = true;
  EXPECT_TRUE(vk::missing_features(shader, device).empty());
}

// An unreadable module checks nothing rather than stopping the case: no push-constant or binding
// error, no missing feature.
TEST(VulkanShaderInterface, UnreadableModuleChecksNothing) {
  vk::ShaderInterface unread;
  unread.unreadable = "Currently no block to insert opcode.";
  Dispatch d;
  d.shader = "x/y";
  EXPECT_NO_THROW(vk::check_dispatch("k", d, unread));
  EXPECT_TRUE(vk::missing_features(unread, vk::DeviceFeatures{}).empty());
}

}  // namespace
}  // namespace perfgate
#endif
