// The LLM kernels' CPU implementations against their float64 references on fresh random data at
// small sizes, poisoned outputs rejected, and their Vulkan plans well-formed (shaders embedded,
// bindings naming buffers) for every default point and the matmul tile/wg sweep.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "perfgate/error.h"
#include "perfgate/registry.h"

namespace perfgate {
namespace {

const KernelDef& kernel(const std::string& name) {
  const KernelDef* k = find_kernel(name);
  if (!k) throw std::runtime_error("kernel " + name + " is not registered");
  return *k;
}

// Fills inputs (seeded), poisons outputs as the harness does, runs `run` and verifies.
CheckResult run_and_verify(const KernelDef& k, const Params& p, bool run, std::uint64_t seed = 1) {
  Buffers buffers(k.buffer_specs(p));
  Rng rng(seed);
  k.fill_inputs(p, buffers, rng);
  for (auto& b : buffers.all())
    if (b.spec.role != BufferRole::input) std::memset(b.data.data(), 0xff, b.data.size());
  if (run) k.run_cpu(p, buffers);
  return k.verify(p, buffers);
}

struct Point {
  std::string kernel;
  std::vector<std::pair<std::string, std::int64_t>> params;
};

std::string point_text(const Point& point) {
  std::string name = point.kernel;
  for (const auto& [axis, value] : point.params) name += "_" + axis + std::to_string(value);
  return name;
}

std::string point_name(const ::testing::TestParamInfo<Point>& info) { return point_text(info.param); }

// Readable parameters in test output (and in the CTest names gtest_discover_tests derives).
void PrintTo(const Point& point, std::ostream* os) { *os << point_text(point); }

// Small sizes, including ragged ones the CPU code must handle (not multiples of its blocks).
const std::vector<Point> kSmallPoints = {
    {"matmul", {{"m", 64}, {"n", 96}, {"k", 80}}},
    {"matmul", {{"m", 7}, {"n", 45}, {"k", 300}}},
    {"matmul", {{"m", 1}, {"n", 33}, {"k", 17}}},
    {"f16_matvec", {{"m", 37}, {"k", 264}}},
    {"f16_matvec", {{"m", 256}, {"k", 1024}}},
    {"q4_0_matvec", {{"m", 37}, {"k", 256}}},
    {"q4_0_matvec", {{"m", 128}, {"k", 1024}}},
    {"softmax", {{"rows", 13}, {"cols", 100}}},
    {"softmax", {{"rows", 4}, {"cols", 4096}}},
    {"rmsnorm", {{"rows", 13}, {"cols", 100}}},
    {"layernorm", {{"rows", 13}, {"cols", 100}}},
    {"attention_qkv", {{"seq", 32}, {"dmodel", 64}, {"heads", 4}}},
    {"attention_scores", {{"seq", 32}, {"dmodel", 64}, {"heads", 4}}},
    {"attention_softmax", {{"seq", 32}, {"dmodel", 64}, {"heads", 4}}},
    {"attention_weighted_sum", {{"seq", 32}, {"dmodel", 64}, {"heads", 4}}},
    {"attention_output", {{"seq", 32}, {"dmodel", 64}, {"heads", 4}}},
    {"attention_layer", {{"seq", 32}, {"dmodel", 64}, {"heads", 4}}},
    {"attention_layer", {{"seq", 20}, {"dmodel", 96}, {"heads", 3}}},
    {"sampling", {{"vocab", 5000}, {"batch", 3}, {"k", 40}}},
    {"sampling", {{"vocab", 32000}, {"batch", 1}, {"k", 1}}},
    {"sampling", {{"vocab", 100}, {"batch", 2}, {"k", 64}}},
    {"attention_fused", {{"seq", 32}, {"dmodel", 64}, {"heads", 4}, {"causal", 0}}},
    {"attention_fused", {{"seq", 100}, {"dmodel", 96}, {"heads", 3}, {"causal", 1}}},
    {"matmul_f16", {{"m", 33}, {"n", 48}, {"k", 70}}},
    {"matmul_bf16", {{"m", 33}, {"n", 48}, {"k", 70}}},
    {"matmul_f16", {{"m", 20}, {"n", 70}, {"k", 300}}},  // past one k-block of the CPU GEMM
    {"matmul_bf16", {{"m", 20}, {"n", 70}, {"k", 300}}},
    {"tensor_peak", {{"n", 16}, {"iters", 5}}},
    {"cache_peak", {{"n", 4096}, {"iters", 3}}},
};

class KernelsCpu : public ::testing::TestWithParam<Point> {};

TEST_P(KernelsCpu, MatchesReferenceOnRandomData) {
  const KernelDef& k = kernel(GetParam().kernel);
  const Params p(GetParam().params);
  ASSERT_TRUE(k.is_valid(p, Backend::cpu)) << p.id();
  for (std::uint64_t seed : {1u, 2u}) {
    const CheckResult r = run_and_verify(k, p, true, seed);
    EXPECT_TRUE(r.ok) << k.name() << " " << p.id() << " seed " << seed << ": " << r.detail;
  }
}

TEST_P(KernelsCpu, RejectsPoisonedOutput) {
  const KernelDef& k = kernel(GetParam().kernel);
  const CheckResult r = run_and_verify(k, Params(GetParam().params), false);
  EXPECT_FALSE(r.ok) << k.name() << ": an unwritten output passed: " << r.detail;
}

INSTANTIATE_TEST_SUITE_P(Small, KernelsCpu, ::testing::ValuesIn(kSmallPoints), point_name);

// Past about 2^30 float64 operations the attention references check 256 seeded rows (the first
// and last among them) instead of every row; every element is still tested for finiteness, and
// a wrong value in a checked row still fails.
TEST(KernelsCpu, AttentionChecksSampledRowsOfLargeShapes) {
  const KernelDef& k = kernel("attention_fused");
  const Params p({{"seq", 1024}, {"dmodel", 512}, {"heads", 4}, {"causal", 1}});
  Buffers buffers(k.buffer_specs(p));
  Rng rng(7);
  k.fill_inputs(p, buffers, rng);
  k.run_cpu(p, buffers);
  const CheckResult ok = k.verify(p, buffers);
  EXPECT_TRUE(ok.ok) << ok.detail;
  EXPECT_NE(ok.detail.find("256 sampled rows of 1024"), std::string::npos) << ok.detail;
  auto attn = buffers.get<float>("attn");
  const std::size_t last_row = std::size_t(1023 * 512);
  attn[last_row + 5] += 1.0f;  // the last row is always checked
  EXPECT_FALSE(k.verify(p, buffers).ok);
  attn[last_row + 5] -= 1.0f;
  attn[12345] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(k.verify(p, buffers).ok);
}

TEST(KernelsCpu, CostModelsAreMinimalTraffic) {
  // matmul 64 x 32 x 16: A and B read once, C written once, 2 m n k flops.
  const Cost c = kernel("matmul").cost_of(Params({{"m", 64}, {"n", 32}, {"k", 16}}));
  EXPECT_DOUBLE_EQ(c.bytes_read, 4.0 * (64 * 16 + 16 * 32));
  EXPECT_DOUBLE_EQ(c.bytes_written, 4.0 * 64 * 32);
  EXPECT_DOUBLE_EQ(c.flops, 2.0 * 64 * 32 * 16);
  // Q4_0: 18 bytes per 32 weights plus x; f16: 2 bytes per weight plus x.
  const Params mv({{"m", 4096}, {"k", 4096}});
  EXPECT_DOUBLE_EQ(kernel("q4_0_matvec").cost_of(mv).bytes_read, 4096.0 * 128 * 18 + 4 * 4096);
  EXPECT_DOUBLE_EQ(kernel("f16_matvec").cost_of(mv).bytes_read, 2.0 * 4096 * 4096 + 4 * 4096);
  EXPECT_DOUBLE_EQ(kernel("softmax").cost_of(Params({{"rows", 2}, {"cols", 8}})).bytes(), 2 * 64.0);
  // Fused attention: qkv read and attn written once, the three stages' flops (causal: the pairs
  // on and below the diagonal), on the matrix units.
  const Cost fused =
      kernel("attention_fused").cost_of(Params({{"seq", 64}, {"dmodel", 128}, {"heads", 2}, {"causal", 1}}));
  EXPECT_DOUBLE_EQ(fused.bytes(), 4.0 * (64 * 384 + 64 * 128));
  EXPECT_DOUBLE_EQ(fused.flops, 2 * (64.0 * 65 / 2) * (4 * 64 + 5));
  EXPECT_TRUE(fused.matrix_flops);
}

TEST(KernelsCpu, SamplingRefusesZeroRoundsOrWorkgroup) {  // they divide the vocabulary
  const KernelDef& k = kernel("sampling");
  EXPECT_TRUE(k.is_valid(Params({{"vocab", 32000}, {"batch", 1}, {"k", 40}, {"wg", 128}, {"rounds", 1}}),
                         Backend::vulkan));
  EXPECT_FALSE(k.is_valid(Params({{"vocab", 32000}, {"batch", 1}, {"k", 40}, {"wg", 128}, {"rounds", 0}}),
                          Backend::vulkan));
  EXPECT_FALSE(k.is_valid(Params({{"vocab", 32000}, {"batch", 1}, {"k", 40}, {"wg", 0}, {"rounds", 1}}),
                          Backend::vulkan));
}

TEST(KernelsCpu, SamplingCheckRejectsAWrongTokenSetOrDraw) {
  const KernelDef& k = kernel("sampling");
  const Params p({{"vocab", 4096}, {"batch", 1}, {"k", 8}});
  Buffers buf(k.buffer_specs(p));
  Rng rng(3);
  k.fill_inputs(p, buf, rng);
  k.run_cpu(p, buf);
  ASSERT_TRUE(k.verify(p, buf).ok);
  auto top = buf.get<std::uint32_t>("top_tok");
  const std::uint32_t last = top[7];
  top[7] = top[7] == 0 ? 1 : 0;  // a token outside the top 8 (of 4096: almost surely)
  EXPECT_FALSE(k.verify(p, buf).ok);
  top[7] = last;
  auto token = buf.get<std::uint32_t>("token");
  token[0] = token[0] == top[0] ? top[7] : top[0];  // a different token of the set
  EXPECT_FALSE(k.verify(p, buf).ok);
}

// Every default point of every LLM kernel on Vulkan, with and without subgroup arithmetic.
const std::vector<std::string> kLlmKernels = {"matmul",
                                              "f16_matvec",
                                              "q4_0_matvec",
                                              "q4_0_q8_matvec",
                                              "softmax",
                                              "rmsnorm",
                                              "layernorm",
                                              "attention_qkv",
                                              "attention_scores",
                                              "attention_softmax",
                                              "attention_weighted_sum",
                                              "attention_output",
                                              "attention_layer",
                                              "attention_fused",
                                              "matmul_f16",
                                              "matmul_bf16",
                                              "sampling"};

std::vector<Params> default_points(const KernelDef& k, Backend backend) {
  std::vector<std::vector<std::pair<std::string, std::int64_t>>> points{{}};
  for (const Axis& axis : k.axes()) {
    if (!axis.applies_to(backend)) continue;
    std::vector<std::vector<std::pair<std::string, std::int64_t>>> next;
    for (const auto& prefix : points)
      for (std::int64_t v : axis.values) {
        next.push_back(prefix);
        next.back().emplace_back(axis.name, v);
      }
    points = std::move(next);
  }
  std::vector<Params> valid;
  for (auto& values : points)
    if (k.is_valid(Params(values), backend)) valid.emplace_back(values);
  return valid;
}

void expect_well_formed(const KernelDef& k, const Params& p, const DeviceLimits& limits) {
  const auto specs = k.buffer_specs(p);
  const Buffers buffers(specs);
  const VulkanPlan plan = k.vulkan_plan(p, limits);
  ASSERT_FALSE(plan.dispatches.empty()) << k.name();
  for (const Dispatch& d : plan.dispatches) {
    SCOPED_TRACE(k.name() + " " + p.id() + " " + d.shader);
#ifdef PERFGATE_HAS_VULKAN
    EXPECT_FALSE(find_shader(d.shader).empty()) << "shader not embedded";
#endif
    // The matmuls and attention_fused have no subgroup variant; sampling takes its subgroup
    // shaders on 32 lanes or more only.
    const bool narrow = k.name() == "sampling" && limits.subgroup_size < 32;
    const bool one_variant = d.shader.find("matmul") != std::string::npos || k.name() == "attention_fused";
    EXPECT_EQ(d.shader.ends_with("_shared"), (!limits.subgroup_arithmetic || narrow) && !one_variant);
    for (const auto& name : d.bindings) EXPECT_NO_THROW(buffers.index_of(name)) << name;
    ASSERT_FALSE(d.specialization.empty());
    EXPECT_LE(d.specialization[0], limits.max_workgroup_invocations);
    EXPECT_LE(d.push_constants.size() * 4, 128u);  // the guaranteed push constant range
    for (std::uint32_t g : d.groups) EXPECT_TRUE(g >= 1 && g <= 65535) << g;
    EXPECT_FALSE(d.stage.empty());
  }
  for (const auto& s : specs) EXPECT_LE(s.bytes(), limits.max_storage_buffer_range) << s.name;
}

TEST(KernelsVulkanPlan, DefaultPointsAreWellFormed) {
  for (bool subgroups : {true, false}) {
    DeviceLimits limits;  // llvmpipe-like
    limits.subgroup_size = 8;
    limits.subgroup_arithmetic = subgroups;
    limits.integer_dot_product = subgroups;
    limits.max_workgroup_invocations = 1024;
    limits.max_shared_memory_bytes = 32768;
    for (const auto& name : kLlmKernels) {
      const KernelDef& k = kernel(name);
      const auto points = default_points(k, Backend::vulkan);
      EXPECT_FALSE(points.empty()) << name << " has no default Vulkan point";
      for (const Params& p : points) expect_well_formed(k, p, limits);
    }
  }
}

// An H100-like device with workgroup-scope matrices (VK_NV_cooperative_matrix2).
DeviceLimits workgroup_matrix_limits() {
  DeviceLimits limits;
  limits.subgroup_size = 32;
  limits.max_workgroup_invocations = 1024;
  limits.max_shared_memory_bytes = 49152;
  limits.cooperative_matrix_workgroup = true;
  limits.matrix_workgroup_max_invocations = 256;
  return limits;
}

// matmul_f16's workgroup-scope paths: each `staged` value names its tile shape, k-step, shared
// buffers and tile order (specialization wg, TM, TN, BK, BUFFERS, GROUP), rectangular tiles need m and n to
// be multiples of their sides, and a path whose buffers overflow the shared memory is refused.
TEST(KernelsVulkanPlan, MatmulF16WorkgroupPathsNameTheirShapes) {
  const DeviceLimits limits = workgroup_matrix_limits();
  const KernelDef& k = kernel("matmul_f16");
  auto point = [](std::int64_t staged, std::int64_t m, std::int64_t n, std::int64_t tile) {
    return Params({{"m", m}, {"n", n}, {"k", 256}, {"tile", tile}, {"wg", 128}, {"staged", staged}});
  };
  const struct {
    std::int64_t staged;
    std::vector<std::uint32_t> specialization;
    std::array<std::uint32_t, 3> groups;
  } paths[] = {{3, {128, 64, 64, 32, 1, 0}, {4, 4, 1}},  {4, {128, 64, 64, 64, 1, 0}, {4, 4, 1}},
               {5, {128, 64, 64, 32, 2, 0}, {4, 4, 1}},  {6, {128, 64, 64, 16, 2, 0}, {4, 4, 1}},
               {7, {128, 64, 128, 32, 1, 0}, {2, 4, 1}}, {8, {128, 64, 128, 16, 2, 0}, {2, 4, 1}},
               {9, {128, 128, 64, 32, 1, 0}, {4, 2, 1}}, {10, {128, 128, 64, 16, 2, 0}, {4, 2, 1}},
               {11, {128, 64, 64, 32, 1, 8}, {4, 4, 1}}, {12, {128, 64, 64, 32, 1, 16}, {4, 4, 1}},
               {13, {128, 64, 128, 32, 1, 8}, {2, 4, 1}}};
  for (const auto& path : paths) {
    SCOPED_TRACE(path.staged);
    const Params p = point(path.staged, 256, 256, 64);
    ASSERT_TRUE(k.is_valid(p, Backend::vulkan));
    const Dispatch d = k.vulkan_plan(p, limits).dispatches.at(0);
    EXPECT_EQ(d.shader, "matmul_f16/matmul_f16_workgroup");
    EXPECT_EQ(d.specialization, path.specialization);
    EXPECT_EQ((std::array<std::uint32_t, 3>{d.groups[0], d.groups[1], d.groups[2]}), path.groups);
  }
  EXPECT_FALSE(k.is_valid(point(7, 256, 192, 64), Backend::vulkan));  // n: 64 x 128 tiles
  EXPECT_FALSE(k.is_valid(point(9, 192, 256, 64), Backend::vulkan));  // m: 128 x 64 tiles
  EXPECT_TRUE(k.is_valid(point(9, 256, 192, 64), Backend::vulkan));
  // Two 256 x 256 x 32 buffers are 73 KiB.
  EXPECT_THROW(k.vulkan_plan(point(5, 512, 512, 256), limits), Error);
  EXPECT_NO_THROW(k.vulkan_plan(point(3, 512, 512, 256), limits));
}

// The tensor-layout paths (staged 14 to 16): K and N go to the shader as specialization
// constants (wg, TM, TN, BK 32, UNROLL, K, N, GROUP), the k loop unrolled as deep as divides k up
// to 64 steps, and only tile multiples are valid.
TEST(KernelsVulkanPlan, MatmulF16TensorLayoutPathsSpecializeKAndN) {
  const DeviceLimits limits = workgroup_matrix_limits();
  const KernelDef& k = kernel("matmul_f16");
  auto point = [](std::int64_t staged, std::int64_t n, std::int64_t depth) {
    return Params({{"m", 256}, {"n", n}, {"k", depth}, {"tile", 64}, {"wg", 256}, {"staged", staged}});
  };
  const struct {
    std::int64_t staged, n, k;
    std::vector<std::uint32_t> specialization;
    std::array<std::uint32_t, 3> groups;
  } paths[] = {{14, 256, 4096, {256, 64, 128, 32, 64, 4096, 256, 16}, {2, 4, 1}},
               {15, 512, 2560, {256, 64, 128, 32, 16, 2560, 512, 0}, {4, 4, 1}},
               {16, 256, 96, {256, 64, 64, 32, 1, 96, 256, 0}, {4, 4, 1}}};
  for (const auto& path : paths) {
    SCOPED_TRACE(path.staged);
    const Params p = point(path.staged, path.n, path.k);
    ASSERT_TRUE(k.is_valid(p, Backend::vulkan));
    const Dispatch d = k.vulkan_plan(p, limits).dispatches.at(0);
    EXPECT_EQ(d.shader, "matmul_f16/matmul_f16_tensor");
    EXPECT_EQ(d.specialization, path.specialization);
    EXPECT_EQ((std::array<std::uint32_t, 3>{d.groups[0], d.groups[1], d.groups[2]}), path.groups);
  }
  EXPECT_FALSE(k.is_valid(point(14, 192, 256), Backend::vulkan));  // n: 64 x 128 tiles
  EXPECT_FALSE(k.is_valid(point(16, 256, 48), Backend::vulkan));   // k: steps of 32
}

// matmul_bf16 is matmul_f16's staged=14 on bf16: the same specialization (tile x 2 tile, bands
// of 16 tile rows), and a workgroup over the device's workgroup-scope limit is refused.
TEST(KernelsVulkanPlan, MatmulBf16IsTheTensorLayoutPathOnBf16) {
  const DeviceLimits limits = workgroup_matrix_limits();
  const KernelDef& k = kernel("matmul_bf16");
  auto point = [](std::int64_t tile, std::int64_t wg) {
    return Params({{"m", 256}, {"n", 512}, {"k", 256}, {"tile", tile}, {"wg", wg}});
  };
  const Dispatch d = k.vulkan_plan(point(64, 256), limits).dispatches.at(0);
  EXPECT_EQ(d.shader, "matmul_bf16/matmul_bf16_tensor");
  EXPECT_EQ(d.specialization, (std::vector<std::uint32_t>{256, 64, 128, 32, 8, 256, 512, 16}));
  EXPECT_EQ((std::array<std::uint32_t, 3>{d.groups[0], d.groups[1], d.groups[2]}),
            (std::array<std::uint32_t, 3>{4, 4, 1}));
  const Params f16 = Params({{"m", 256}, {"n", 512}, {"k", 256}, {"tile", 64}, {"wg", 256}, {"staged", 14}});
  EXPECT_EQ(kernel("matmul_f16").vulkan_plan(f16, limits).dispatches.at(0).specialization, d.specialization);
  EXPECT_FALSE(k.is_valid(Params({{"m", 256}, {"n", 256}, {"k", 48}, {"tile", 64}, {"wg", 128}}), Backend::vulkan));
  EXPECT_FALSE(k.is_valid(Params({{"m", 256}, {"n", 192}, {"k", 64}, {"tile", 64}, {"wg", 128}}), Backend::vulkan));
  EXPECT_THROW(k.vulkan_plan(point(128, 512), limits), Error);
}

// A plan of more rows than a grid dimension holds (65535 workgroups) spreads them evenly over
// x and y, so few workgroups of the grid are empty.
TEST(KernelsVulkanPlan, RowsBeyondOneGridDimensionSplitEvenly) {
  DeviceLimits limits;
  limits.subgroup_size = 32;
  limits.subgroup_arithmetic = true;
  limits.integer_dot_product = true;  // the subgroup-rows shader: 2 rows per wg=32 workgroup
  limits.max_workgroup_invocations = 1024;
  limits.max_shared_memory_bytes = 49152;
  for (std::int64_t m : {65535 * 2, 65536 * 2, 65535 * 6 + 2}) {
    const Params p({{"m", m}, {"k", 4096}, {"wg", 32}});
    const auto groups = kernel("q4_0_q8_matvec").vulkan_plan(p, limits).dispatches[0].groups;
    const std::uint64_t needed = std::uint64_t(m) / 2, launched = std::uint64_t(groups[0]) * groups[1];
    SCOPED_TRACE(m);
    EXPECT_LE(groups[0], 65535u);
    EXPECT_GE(launched, needed);
    EXPECT_LT(launched - needed, groups[1]);  // at most one short row of the grid
  }
}

// The matrix-vector products take their subgroup-per-rows shader only where whole subgroups fit
// the workgroup (and, for Q4_0, 8 lanes divide the subgroup); otherwise the workgroup-per-row
// one, so the default wg=32 works on 64-lane subgroups too.
TEST(KernelsVulkanPlan, MatvecFallsBackWhereSubgroupRowsDoNotFit) {
  DeviceLimits limits;
  limits.subgroup_arithmetic = true;
  limits.max_workgroup_invocations = 1024;
  limits.max_shared_memory_bytes = 49152;
  const Params p({{"m", 256}, {"k", 1024}, {"wg", 32}});
  for (const std::string name : {"f16_matvec", "q4_0_matvec"}) {
    limits.subgroup_size = 32;
    EXPECT_EQ(kernel(name).vulkan_plan(p, limits).dispatches[0].shader, name + "/" + name + "_rows");
    limits.subgroup_size = 64;  // wg=32 is half a subgroup
    const Dispatch fallback = kernel(name).vulkan_plan(p, limits).dispatches[0];
    EXPECT_EQ(fallback.shader, name + "/" + name + "_shared");
#ifdef PERFGATE_HAS_VULKAN
    EXPECT_FALSE(find_shader(fallback.shader).empty()) << fallback.shader << " not embedded";
#endif
  }
  limits.subgroup_size = 4;  // Q4_0's 8 lanes per pair of blocks do not divide it; f16 fits
  EXPECT_EQ(kernel("q4_0_matvec").vulkan_plan(p, limits).dispatches[0].shader,
            "q4_0_matvec/q4_0_matvec_shared");
  EXPECT_EQ(kernel("f16_matvec").vulkan_plan(p, limits).dispatches[0].shader, "f16_matvec/f16_matvec_rows");
}

// attention_fused takes the tensor-core shader only with f16 cooperative matrices on 32-lane
// subgroups: 128 query rows per workgroup (256 threads) where that still gives every
// multiprocessor a workgroup, else 64; elsewhere the thread-per-row shader.
TEST(KernelsVulkanPlan, FusedAttentionTakesTensorCoresWhereOffered) {
  DeviceLimits limits{.subgroup_size = 32,  // H100-like
                      .subgroup_arithmetic = true,
                      .cooperative_matrix_f16 = true,
                      .max_workgroup_invocations = 1024,
                      .max_shared_memory_bytes = 49152,
                      .compute_units = 132};
  const KernelDef& k = kernel("attention_fused");
  const Params large({{"seq", 4096}, {"dmodel", 4096}, {"heads", 32}, {"causal", 1}, {"path", 0}});
  const Dispatch d = k.vulkan_plan(large, limits).dispatches[0];
  EXPECT_EQ(d.shader, "attention/attention_fused_coopmat");
  EXPECT_EQ(d.specialization, (std::vector<std::uint32_t>{256, 128, 1, 128}));
  EXPECT_EQ(d.groups, (std::array<std::uint32_t, 3>{32, 32, 1}));
  const Params small({{"seq", 128}, {"dmodel", 512}, {"heads", 8}, {"causal", 0}, {"path", 0}});
  EXPECT_EQ(k.vulkan_plan(small, limits).dispatches[0].specialization[3], 64u);
#ifdef PERFGATE_HAS_VULKAN
  EXPECT_FALSE(find_shader(d.shader).empty());
#endif
  limits.subgroup_size = 64;
  EXPECT_EQ(k.vulkan_plan(large, limits).dispatches[0].shader, "attention/attention_fused");
  limits.subgroup_size = 32;
  limits.cooperative_matrix_f16 = false;
  EXPECT_EQ(k.vulkan_plan(large, limits).dispatches[0].shader, "attention/attention_fused");
}

// attention_fused's workgroup-scope paths name their shape (specialization wg, HD, CAUSAL, ROWS,
// KB, LAZY, PACKED, BUFFERS) wherever the device has tensor cores (a device without VK_NV_cooperative_matrix2
// is then told so by the shader's features), refuse more invocations than workgroup-scope matrices take, and
// fall back to the f32 shader without tensor cores.
TEST(KernelsVulkanPlan, FusedAttentionWorkgroupPathsNameTheirShapes) {
  DeviceLimits limits{.subgroup_size = 32,  // H100-like
                      .subgroup_arithmetic = true,
                      .cooperative_matrix_f16 = true,
                      .cooperative_matrix_workgroup = true,
                      .matrix_workgroup_max_invocations = 256,
                      .max_workgroup_invocations = 1024,
                      .max_shared_memory_bytes = 49152,
                      .compute_units = 132};
  const KernelDef& k = kernel("attention_fused");
  auto point = [](std::int64_t path) {
    return Params({{"seq", 4096}, {"dmodel", 4096}, {"heads", 32}, {"causal", 1}, {"path", path}});
  };
  const Dispatch d = k.vulkan_plan(point(7), limits).dispatches[0];
  EXPECT_EQ(d.shader, "attention/attention_fused_workgroup");
  EXPECT_EQ(d.specialization, (std::vector<std::uint32_t>{256, 128, 1, 128, 32, 1, 0, 1}));
  EXPECT_EQ(d.groups, (std::array<std::uint32_t, 3>{32, 32, 1}));
  EXPECT_EQ(k.vulkan_plan(point(2), limits).dispatches[0].specialization,
            (std::vector<std::uint32_t>{128, 128, 1, 64, 32, 0, 0, 1}));
  const Dispatch rows = k.vulkan_plan(point(17), limits).dispatches[0];
  EXPECT_EQ(rows.shader, "attention/attention_fused_rows");
  EXPECT_EQ(rows.specialization, (std::vector<std::uint32_t>{256, 128, 1, 32, 0}));
  const VulkanPlan with_f16kv = k.vulkan_plan(point(21), limits);  // K and V rounded by a pre-pass
  ASSERT_EQ(with_f16kv.dispatches.size(), 2u);
  EXPECT_EQ(with_f16kv.dispatches[0].shader, "attention/attention_kv_f16");
  EXPECT_EQ(with_f16kv.dispatches[0].groups[0] * 256u, 4096u * 4096u / 4);  // 8 halves an invocation
  EXPECT_EQ(with_f16kv.dispatches[1].specialization, (std::vector<std::uint32_t>{256, 128, 1, 32, 1}));
  EXPECT_EQ(rows.groups, (std::array<std::uint32_t, 3>{32, 32, 1}));
  // Through tensor layouts: seq and d as constants, bounds checked only where a block passes seq,
  // K and V from the pre-pass (27) or as f32 from qkv (32, no pre-pass), blocks of keys unrolled.
  const VulkanPlan tensor = k.vulkan_plan(point(27), limits);
  ASSERT_EQ(tensor.dispatches.size(), 2u);
  EXPECT_EQ(tensor.dispatches[0].shader, "attention/attention_kv_f16");
  EXPECT_EQ(tensor.dispatches[1].shader, "attention/attention_fused_tensor");
  EXPECT_EQ(tensor.dispatches[1].specialization,
            (std::vector<std::uint32_t>{256, 128, 1, 128, 64, 4096, 4096, 0, 0, 4}));
  const VulkanPlan kv32 =
      k.vulkan_plan(Params({{"seq", 4000}, {"dmodel", 4096}, {"heads", 32}, {"causal", 0}, {"path", 32}}), limits);
  ASSERT_EQ(kv32.dispatches.size(), 1u);
  EXPECT_EQ(kv32.dispatches[0].specialization,
            (std::vector<std::uint32_t>{256, 128, 0, 128, 64, 4000, 4096, 1, 1, 4}));
  EXPECT_EQ(kv32.dispatches[0].groups, (std::array<std::uint32_t, 3>{32, 32, 1}));  // 4000 rows in 32 of 128
  limits.matrix_workgroup_max_invocations = 128;
  EXPECT_THROW(k.vulkan_plan(point(27), limits), Error);
  EXPECT_NO_THROW(k.vulkan_plan(point(31), limits));  // 64 rows on 128 invocations
  EXPECT_THROW(k.vulkan_plan(point(7), limits), Error);
  EXPECT_NO_THROW(k.vulkan_plan(point(17), limits));  // subgroup-scope matrices: no such limit
  limits.cooperative_matrix_workgroup = false;
  EXPECT_EQ(k.vulkan_plan(point(7), limits).dispatches[0].shader, "attention/attention_fused_workgroup");
  limits.cooperative_matrix_f16 = false;
  EXPECT_EQ(k.vulkan_plan(point(7), limits).dispatches[0].shader, "attention/attention_fused");
}

TEST(KernelsVulkanPlan, MatmulSweepCoversTilesAndWorkgroups) {
  DeviceLimits limits;
  limits.max_workgroup_invocations = 1024;
  limits.max_shared_memory_bytes = 49152;
  const KernelDef& k = kernel("matmul");
  int valid = 0;
  for (std::int64_t tile : {16, 32, 64, 128})
    for (std::int64_t wg : {32, 64, 128, 256, 512}) {
      const Params p({{"m", 512}, {"n", 512}, {"k", 512}, {"tile", tile}, {"wg", wg}});
      if (!k.is_valid(p, Backend::vulkan)) {
        EXPECT_TRUE(tile * tile < wg || tile * tile / wg > 64) << p.id();
        continue;
      }
      ++valid;
      expect_well_formed(k, p, limits);
      const Dispatch d = k.vulkan_plan(p, limits).dispatches[0];
      // Register block: RM x RN outputs per thread covering the tile exactly.
      EXPECT_EQ(std::int64_t(d.specialization[3] * d.specialization[4]) * wg, tile * tile) << p.id();
      EXPECT_EQ(d.groups[0], 512u / tile);
    }
  EXPECT_GE(valid, 12);
  // The sweep: tile=16,32,64 x wg=64,128,256 has a valid point for every tile.
  for (std::int64_t tile : {16, 32, 64}) {
    bool any = false;
    for (std::int64_t wg : {64, 128, 256})
      any |= k.is_valid(Params({{"m", 512}, {"n", 512}, {"k", 512}, {"tile", tile}, {"wg", wg}}),
                        Backend::vulkan);
    EXPECT_TRUE(any) << "tile " << tile;
  }
}

}  // namespace
}  // namespace perfgate
