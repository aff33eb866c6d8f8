// Typed specialization constants (Dispatch::constant) on a real compiled shader
// (tests/vulkan/spec_types/spec_types.comp): reflected with their ids and types, refused with the
// shader, the constant_id and both types on a mismatch, and delivered to the shader on a device.
#include <gtest/gtest.h>

#include "perfgate/kernel.h"

#ifdef PERFGATE_HAS_VULKAN
#include "perfgate/error.h"
#include "perfgate/registry.h"
#include "vulkan/dispatch_refusal.h"
#include "vulkan/shader_interface.h"
#include "vulkan/vulkan_fixture.h"
#endif

namespace perfgate {
namespace {

TEST(SpecConstant, CarriesItsTypeAndBits) {
  EXPECT_EQ(SpecConstant::of(1, -3).type, ConstantType::int32);
  EXPECT_EQ(SpecConstant::of(1, -3).bits, 0xfffffffdu);
  EXPECT_EQ(SpecConstant::of(2, 1.5f).bits, 0x3fc00000u);
  EXPECT_EQ(SpecConstant::of(3, true).bits, 1u);
  EXPECT_EQ(SpecConstant::of(4, 64u).type, ConstantType::uint32);
  EXPECT_EQ(SpecConstant::of(1, -3).value_text(), "-3");
  EXPECT_EQ(SpecConstant::of(2, 1.5f).value_text(), "1.5f");
  EXPECT_EQ(SpecConstant::of(3, false).value_text(), "false");
  EXPECT_EQ(SpecConstant::of(4, 64u).value_text(), "64u");
  EXPECT_EQ((SpecConstant{0, ConstantType::word, 255}.value_text()), "0x000000ff");
}

TEST(SpecConstant, WordsComeFirstThenTypedConstants) {
  Dispatch d;
  d.specialization = {64, 7};
  d.constant(3, true).constant(2, 0.25f);
  const auto all = d.all_constants();
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].id, 1u);
  EXPECT_EQ(all[1].type, ConstantType::word);
  EXPECT_EQ(all[2].id, 3u);
  EXPECT_EQ(all[3].type, ConstantType::float32);
}

#ifdef PERFGATE_HAS_VULKAN
constexpr const char* kShader = "spec_types/spec_types";

Dispatch spec_dispatch(std::uint32_t n) {
  Dispatch d;
  d.shader = kShader;
  d.bindings = {"y"};
  d.constant(0, 32u).constant(1, 5).constant(2, 0.5f).constant(3, true).constant(4, n);
  d.groups = {(n + 31) / 32, 1, 1};
  return d;
}

std::string spec_refusal(const Dispatch& d) { return testing::dispatch_refusal("spec_types", d); }

TEST(VulkanSpecConstants, ReflectsEachConstantWithItsType) {
  const vk::ShaderInterface shader = vk::reflect_shader(kShader, find_shader(kShader));
  ASSERT_EQ(shader.constants.size(), 6u);
  const char* types[] = {"uint", "int", "float", "bool", "uint", "int64_t"};
  for (std::uint32_t i = 0; i < 6; ++i) {
    EXPECT_EQ(shader.constants[i].id, i);
    EXPECT_EQ(shader.constants[i].type, types[i]) << "constant_id " << i;
  }
  // The workgroup size follows a typed constant as it follows a word.
  EXPECT_EQ(shader.local_size_with(spec_dispatch(64).all_constants()),
            (std::array<std::uint32_t, 3>{32, 1, 1}));
  EXPECT_EQ(spec_refusal(spec_dispatch(64)), "");
}

TEST(VulkanSpecConstants, AnotherTypeIsRefusedNamingShaderIdAndTypes) {
  Dispatch d = spec_dispatch(64);
  d.constants[2] = SpecConstant::of(2, 3);  // an int where the shader has a float
  std::string message = spec_refusal(d);
  EXPECT_NE(message.find("shader 'spec_types/spec_types'"), std::string::npos) << message;
  EXPECT_NE(message.find("specialization constant_id 2 is float in the shader, the dispatch gives int 3"),
            std::string::npos)
      << message;
  d = spec_dispatch(64);
  d.constants[4] = SpecConstant::of(4, 64);  // 64, not 64u
  message = spec_refusal(d);
  EXPECT_NE(message.find("constant_id 4 is uint in the shader, the dispatch gives int 64"), std::string::npos)
      << message;
}

TEST(VulkanSpecConstants, AnIdTheShaderLacksIsRefused) {
  Dispatch d = spec_dispatch(64);
  d.constant(9, true);
  const std::string message = spec_refusal(d);
  EXPECT_NE(
      message.find("the shader declares no specialization constant_id 9 (the dispatch gives bool true; "
                   "the shader declares: 0 (uint), 1 (int), 2 (float), 3 (bool), 4 (uint), 5 (int64_t))"),
      std::string::npos)
      << message;
  // An untyped word for an id the shader lacks is ignored, as Vulkan ignores it.
  Dispatch words = spec_dispatch(64);
  words.constants.clear();
  words.specialization = {32, 5, 0x3f000000u, 1, 64};
  EXPECT_EQ(spec_refusal(words), "");
}

TEST(VulkanSpecConstants, AWordForA64BitConstantIsRefused) {
  Dispatch d = spec_dispatch(64);
  d.constants.clear();
  d.specialization = {32, 5, 0x3f000000u, 1, 64, 0};
  const std::string message = spec_refusal(d);
  EXPECT_NE(message.find("constant_id 5 is int64_t in the shader, the dispatch gives word 0x00000000"),
            std::string::npos)
      << message;
}

TEST(VulkanSpecConstants, AnIdGivenTwiceIsRefused) {
  Dispatch d = spec_dispatch(64);
  d.specialization = {64};  // constant_id 0 again, as a word
  const std::string message = spec_refusal(d);
  EXPECT_NE(message.find("specialization constant_id 0 is given twice (word 0x00000040, then uint 32u)"),
            std::string::npos)
      << message;
}

// On a device: the typed values reach the shader (int offset 5, float scale 0.5, bool negate,
// uint count), checked by the float64 reference on the poisoned output.
TEST(VulkanSpecConstants, TypedValuesReachTheShader) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  constexpr std::uint32_t n = 100;
  KernelDef kernel =
      KernelDef("spec_types")
          .buffers([](const Params&) {
            return std::vector<BufferSpec>{{"y", ElementType::f32, n, BufferRole::output}};
          })
          .reference(
              [](const Params&, const Buffers&) {
                std::vector<double> y(n);
                for (std::uint32_t i = 0; i < n; ++i) y[i] = -0.5 * (i + 5.0);
                return Expected{{"y", y}};
              },
              0.0, "small integers times 0.5 are exact")
          .vulkan([](const Params&, const DeviceLimits&) { return VulkanPlan{{spec_dispatch(n)}}; });
  const Params params;
  const auto specs = kernel.buffer_specs(params);
  ASSERT_FALSE(device->unsupported(kernel, params, specs).has_value());
  Buffers host(specs);
  auto prepared = device->prepare(kernel, params, host);
  EXPECT_EQ(prepared->local_sizes().at(0), (std::array<std::uint32_t, 3>{32, 1, 1}));
  prepared->upload(host);
  prepared->run_once();
  prepared->download(host);
  const CheckResult check = kernel.verify(params, host);
  EXPECT_TRUE(check.ok) << check.detail;
}
#endif

}  // namespace
}  // namespace perfgate
