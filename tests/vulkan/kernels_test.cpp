// Each kernel's shader against its float64 reference on random input, with outputs poisoned
// first; odd sizes exercise the tails. Also the device's refusal of oversized buffers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "perfgate/registry.h"
#include "vulkan/vulkan_fixture.h"

#ifdef PERFGATE_HAS_VULKAN
#include "vulkan/context.h"
#include "vulkan/vulkan_case.h"
#endif

namespace perfgate {
namespace {

struct ShaderCase {
  const char* kernel;
  Params params;
};

std::vector<ShaderCase> shader_cases() {
  return {
      {"copy", Params({{"n", 65539}, {"wg", 256}})},
      {"copy", Params({{"n", 3}, {"wg", 64}})},
      {"triad", Params({{"n", 65539}, {"wg", 128}})},
      {"reduce", Params({{"n", 65539}, {"wg", 256}})},
      {"reduce", Params({{"n", 1 << 20}, {"wg", 64}})},
      {"fma_peak", Params({{"n", 4099}, {"iters", 37}, {"wg", 256}})},
  };
}

void check_case(PreparedCase& prepared, const KernelDef& kernel, const Params& params, Buffers& host) {
  prepared.upload(host);
  prepared.download(host);  // the poisoned outputs
  for (const auto& buffer : host.all()) {
    if (buffer.spec.role != BufferRole::output) continue;
    for (float x : buffer.as<float>()) ASSERT_TRUE(std::isnan(x)) << buffer.spec.name << " was not poisoned";
  }
  prepared.run_once();
  prepared.download(host);
  const CheckResult check = kernel.verify(params, host);
  EXPECT_TRUE(check.ok) << check.detail;
}

// Random inputs (seeded), then check_case.
void fill_and_check(Device& device, const KernelDef& kernel, const Params& params, std::uint64_t seed) {
  Buffers host(kernel.buffer_specs(params));
  Rng rng(seed);
  kernel.fill_inputs(params, host, rng);
  auto prepared = device.prepare(kernel, params, host);
  check_case(*prepared, kernel, params, host);
}

TEST(VulkanKernels, ShadersMatchTheirReferences) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  for (const auto& c : shader_cases()) {
    SCOPED_TRACE(std::string(c.kernel) + " " + c.params.id());
    const KernelDef* kernel = find_kernel(c.kernel);
    ASSERT_NE(kernel, nullptr);
    ASSERT_TRUE(kernel->has_backend(Backend::vulkan));
    const auto specs = kernel->buffer_specs(c.params);
    ASSERT_FALSE(device->unsupported(*kernel, c.params, specs).has_value());
    Buffers host(specs);
    Rng rng(11);
    kernel->fill_inputs(c.params, host, rng);
    auto prepared = device->prepare(*kernel, c.params, host);
    check_case(*prepared, *kernel, c.params, host);
  }
}

#ifdef PERFGATE_HAS_VULKAN
TEST(VulkanKernels, ReduceWithoutSubgroupArithmetic) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  auto context = std::make_shared<vk::Context>("");
  DeviceLimits limits = context->kernel_limits();
  const KernelDef* reduce = find_kernel("reduce");
  ASSERT_NE(reduce, nullptr);
  for (bool subgroups : {false, true}) {
    if (subgroups && !limits.subgroup_arithmetic) continue;
    limits.subgroup_arithmetic = subgroups;
    SCOPED_TRACE(subgroups ? "subgroupAdd" : "shared-memory tree");
    const Params params({{"n", 100003}, {"wg", 96}});  // not a power of two either
    Buffers host(reduce->buffer_specs(params));
    Rng rng(5);
    reduce->fill_inputs(params, host, rng);
    vk::VulkanCase prepared(context, *reduce, params, reduce->buffer_specs(params), limits, 1 << 20);
    ASSERT_EQ(prepared.plan().dispatches.size(), 2u);
    EXPECT_EQ(prepared.plan().dispatches[0].specialization.at(2), subgroups ? 1u : 0u);
    check_case(prepared, *reduce, params, host);
  }
}

// Sampling's plan takes its subgroup shaders only on subgroups of 32 lanes or more (narrower
// ones make its thresholds loose, not wrong): claiming 32 runs them on llvmpipe's 8 lanes too.
DeviceLimits with_wide_subgroups(DeviceLimits limits) {
  limits.subgroup_size = std::max(limits.subgroup_size, 32u);
  return limits;
}

// The LLM kernels whose shaders have a subgroup and a shared-memory variant, at small and
// ragged sizes, through both variants where the device has subgroup arithmetic. Sampling's
// points cover its partial pass in one and in several rounds per workgroup, ragged last
// chunks, and its merge's fallback (rounds of argmax: fewer real candidates than k).
TEST(VulkanKernels, LlmShadersMatchTheirReferencesInBothVariants) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  auto context = std::make_shared<vk::Context>("");
  const std::vector<ShaderCase> cases = {
      {"q4_0_matvec", Params({{"m", 37}, {"k", 256}, {"wg", 64}})},
      {"q4_0_matvec", Params({{"m", 130}, {"k", 1088}, {"wg", 128}})},
      {"q4_0_q8_matvec", Params({{"m", 37}, {"k", 256}, {"wg", 64}})},
      {"q4_0_q8_matvec", Params({{"m", 130}, {"k", 1088}, {"wg", 128}})},
      {"f16_matvec", Params({{"m", 37}, {"k", 264}, {"wg", 64}})},
      {"sampling", Params({{"vocab", 5000}, {"batch", 3}, {"k", 40}, {"wg", 128}, {"rounds", 1}})},
      {"sampling", Params({{"vocab", 4100}, {"batch", 2}, {"k", 40}, {"wg", 128}, {"rounds", 1}})},
      {"sampling", Params({{"vocab", 100}, {"batch", 2}, {"k", 64}, {"wg", 64}, {"rounds", 1}})},
      {"sampling", Params({{"vocab", 32000}, {"batch", 1}, {"k", 1}, {"wg", 128}, {"rounds", 1}})},
      {"sampling", Params({{"vocab", 32000}, {"batch", 2}, {"k", 40}, {"wg", 128}, {"rounds", 4}})},
      {"sampling", Params({{"vocab", 5000}, {"batch", 2}, {"k", 64}, {"wg", 64}, {"rounds", 2}})},
      {"sampling",
       Params({{"vocab", 4097}, {"batch", 2}, {"k", 40}, {"wg", 64}, {"rounds", 2}})},  // scalar loads
  };
  for (bool subgroups : {false, true}) {
    DeviceLimits limits = context->kernel_limits();
    if (subgroups && !limits.subgroup_arithmetic) continue;
    limits.subgroup_arithmetic = subgroups;
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(c.kernel) + " " + c.params.id() + (subgroups ? " subgroups" : " shared"));
      const KernelDef* kernel = find_kernel(c.kernel);
      ASSERT_NE(kernel, nullptr);
      ASSERT_TRUE(kernel->is_valid(c.params, Backend::vulkan));
      Buffers host(kernel->buffer_specs(c.params));
      Rng rng(7);
      kernel->fill_inputs(c.params, host, rng);
      const DeviceLimits case_limits =
          std::string(c.kernel) == "sampling" ? with_wide_subgroups(limits) : limits;
      vk::VulkanCase prepared(context, *kernel, c.params, kernel->buffer_specs(c.params), case_limits,
                              1 << 20);
      check_case(prepared, *kernel, c.params, host);
    }
  }
}
#endif

// Rows that defeat the partial pass's threshold: equal logits (everything survives, the
// buffer overflows again and again), ascending ones (each round beats the last), a few levels
// (ties everywhere, broken by the smaller token). The token sets must still be the reference's.
TEST(VulkanKernels, SamplingSelectsTheTopKOfAdversarialRows) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const KernelDef* sampling = find_kernel("sampling");
  ASSERT_NE(sampling, nullptr);
  auto context = std::make_shared<vk::Context>("");
  for (bool subgroups : {false, true}) {
    DeviceLimits limits = context->kernel_limits();
    if (subgroups && !limits.subgroup_arithmetic) continue;
    limits.subgroup_arithmetic = subgroups;
    for (std::int64_t rounds : {1, 3}) {  // one round: survivors cut at the end; three: after the first too
      const Params params({{"vocab", 9000}, {"batch", 3}, {"k", 40}, {"wg", 64}, {"rounds", rounds}});
      SCOPED_TRACE(params.id() + (subgroups ? " subgroups" : " shared"));
      ASSERT_TRUE(sampling->is_valid(params, Backend::vulkan));
      Buffers host(sampling->buffer_specs(params));
      Rng rng(3);
      sampling->fill_inputs(params, host, rng);
      auto logits = host.get<float>("logits");
      for (std::size_t t = 0; t < 9000; ++t) {
        logits[t] = 1.5f;                                           // row 0: equal
        logits[9000 + t] = float(t) * 1e-3f;                        // row 1: ascending
        logits[18000 + t] = std::round(logits[18000 + t] / 2) * 2;  // row 2: a few levels
      }
      vk::VulkanCase prepared(context, *sampling, params, sampling->buffer_specs(params),
                              with_wide_subgroups(limits), 1 << 20);
      check_case(prepared, *sampling, params, host);
    }
  }
}

// The workgroup-scope tensor peak runs and matches its reference where the device has
// VK_NV_cooperative_matrix2 and the build its shader; elsewhere (llvmpipe) it is skipped naming
// the extension, or the missing compiler.
TEST(VulkanKernels, WorkgroupMatricesRunOrAreSkippedNamingWhy) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const KernelDef* peak = find_kernel("tensor_peak_workgroup");
  ASSERT_NE(peak, nullptr);
  const Params params(
      {{"groups", 3}, {"iters", 5}, {"tm", 64}, {"tn", 32}, {"tk", 32}, {"chains", 2}, {"wg", 128}});
  ASSERT_TRUE(peak->is_valid(params, Backend::vulkan));
  const auto specs = peak->buffer_specs(params);
  const auto why = device->unsupported(*peak, params, specs);
  if (why) {
    const bool named = why->find("VK_NV_cooperative_matrix2") != std::string::npos ||
                       why->find("is not in this build") != std::string::npos;
    EXPECT_TRUE(named) << *why;
    EXPECT_FALSE(device->limits().cooperative_matrix_workgroup &&
                 !find_shader("tensor_peak_workgroup/tensor_peak_workgroup").empty())
        << *why;
    return;
  }
  fill_and_check(*device, *peak, params, 3);
}

// matmul_f16's workgroup-scope paths (square, double-buffered, rectangular tiles, tiles walked in
// bands) match the reference where the device has workgroup-scope matrices, are skipped naming
// what is missing where this build left the shader out, and take the fallback shader elsewhere
// (llvmpipe).
TEST(VulkanKernels, MatmulF16WorkgroupPathsMatchTheReferenceOrAreSkippedNamingWhy) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const KernelDef* matmul = find_kernel("matmul_f16");
  ASSERT_NE(matmul, nullptr);
  for (std::int64_t staged = 3; staged <= 13; ++staged) {
    const Params params({{"m", 256}, {"n", 128}, {"k", 128}, {"tile", 64}, {"wg", 128}, {"staged", staged}});
    SCOPED_TRACE(params.id());
    ASSERT_TRUE(matmul->is_valid(params, Backend::vulkan));
    const auto specs = matmul->buffer_specs(params);
    if (const auto why = device->unsupported(*matmul, params, specs)) {
      EXPECT_NE(why->find("is not in this build"), std::string::npos) << *why;
      continue;
    }
    fill_and_check(*device, *matmul, params, 5);
  }
}

// attention_fused's paths on VK_NV_cooperative_matrix2, every one up to the axis's limit, match
// the reference (a partial last block of keys and of query rows, causal or not) where the device
// has workgroup-scope matrices, are skipped naming what is missing where this build left the
// shader out, and take the f32 shader elsewhere (llvmpipe).
TEST(VulkanKernels, AttentionFusedMatrixPathsMatchTheReferenceOrAreSkippedNamingWhy) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const KernelDef* fused = find_kernel("attention_fused");
  ASSERT_NE(fused, nullptr);
  auto point = [](std::int64_t path, std::int64_t causal) {
    return Params({{"seq", 144}, {"dmodel", 256}, {"heads", 2}, {"causal", causal}, {"path", path}});
  };
  const auto axis = std::find_if(fused->axes().begin(), fused->axes().end(),
                                 [](const Axis& a) { return a.name == "path"; });
  ASSERT_NE(axis, fused->axes().end());
  // Without tensor cores every path takes the one f32 shader: the first stands for them all.
  const DeviceLimits& limits = device->limits();
  const bool matrices = limits.cooperative_matrix_f16 || limits.cooperative_matrix_workgroup;
  for (std::int64_t path = 1; path <= (matrices ? axis->max_value : 1); ++path)
    for (std::int64_t causal : {0, 1}) {
      const Params params = point(path, causal);
      SCOPED_TRACE(params.id());
      const auto specs = fused->buffer_specs(params);
      if (const auto why = device->unsupported(*fused, params, specs)) {
        EXPECT_NE(why->find("is not in this build"), std::string::npos) << *why;
        continue;
      }
      fill_and_check(*device, *fused, params, 7);
    }
}

TEST(VulkanKernels, BuffersOverTheDeviceLimitsAreRefused) {
  PERFGATE_VULKAN_DEVICE_OR_SKIP(device);
  const KernelDef* copy = find_kernel("copy");
  ASSERT_NE(copy, nullptr);
  const std::uint64_t range = device->limits().max_storage_buffer_range;
  const Params params({{"n", static_cast<std::int64_t>(range / 4 + 16)}, {"wg", 256}});
  const std::vector<BufferSpec> specs{{"a", ElementType::f32, range / 4 + 16, BufferRole::input},
                                      {"b", ElementType::f32, range / 4 + 16, BufferRole::output}};
  const auto why = device->unsupported(*copy, params, specs);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("maxStorageBufferRange"), std::string::npos) << *why;
}

}  // namespace
}  // namespace perfgate
