// matmul: C = A * B in float32, A m x k, B k x n, row-major. The tiled, register-blocked GEMM
// that transformer layers spend their compute in; batch 1 (m = 1) is the matrix-vector product
// of f16_matvec and q4_0_matvec, so m here is a batch of tokens.
#include "kernels/common/gemm_cpu.h"
#include "kernels/common/matmul_plan.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

constexpr double kTolerance = 1e-4;

}  // namespace

PERFGATE_KERNEL(matmul) {
  return KernelDef("matmul")
      .describe("C = A * B, float32, A m x k, B k x n: shared-memory tiles, register blocking")
      // CI keeps one moderate size per backend; --axis m=4096 --axis n=4096 --axis k=4096 is
      // the H100 figure, n=k=2560 the 2560 x 2560 weights.
      .axis("m", {512}, {Backend::cpu})
      .axis("n", {2560}, {Backend::cpu})
      .axis("k", {2560}, {Backend::cpu})
      .axis("m", {512}, {Backend::vulkan})
      .axis("n", {512}, {Backend::vulkan})
      .axis("k", {512}, {Backend::vulkan})
      .axis("tile", {128}, {Backend::vulkan})  // the H100 sweep's best (docs/performance.md)
      .axis("wg", {256}, {Backend::vulkan})
      .valid([](const Params& p, Backend backend) {
        if (p["m"] < 1 || p["n"] < 1 || p["k"] < 1) return false;
        if (backend == Backend::cpu) return true;
        const auto config = matmul_config(p["tile"], p["wg"]);
        return config && p["m"] % p["tile"] == 0 && p["n"] % p["tile"] == 0 && p["k"] % kMatmulBK == 0;
      })
      .buffers([](const Params& p) {
        const auto m = std::size_t(p["m"]), n = std::size_t(p["n"]), k = std::size_t(p["k"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, m * k, BufferRole::input},
                                       {"b", ElementType::f32, k * n, BufferRole::input},
                                       {"c", ElementType::f32, m * n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double m = double(p["m"]), n = double(p["n"]), k = double(p["k"]);
        return Cost{4 * (m * k + k * n), 4 * m * n, 2 * m * n * k};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            const GemmShape s = row_major_gemm(p);
            const float* a = in.get<float>("a").data();
            const float* b = in.get<float>("b").data();
            std::vector<double> c(std::size_t(s.m * s.n));
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < s.m; ++i)
              for (std::int64_t j = 0; j < s.n; ++j)
                c[std::size_t(i * s.n + j)] = gemm_reference_at(s, a, b, i, j);
            return expect("c", std::move(c));
          },
          kTolerance,
          "float32 dot products of k terms in [-1,1]: each addition rounds by eps/2 = 6e-8 of "
          "the partial sum and the errors add like a random walk, ~eps/2 * sqrt(k) = 4e-6 "
          "relative at k = 4096 whatever the summation order (tiles, fma); 1e-4 leaves 25x. "
          "Large products are checked on 4096 sampled elements, every element for NaN")
      // The float64 reference is O(m n k): sampled elements beyond 2^28 multiply-adds.
      .check([](const Params& p, const Buffers& buf) {
        return check_gemm(row_major_gemm(p), buf.get<float>("a").data(), buf.get<float>("b").data(),
                          buf.get<float>("c").data(), kTolerance, "c");
      })
      .cpu([](const Params& p, Buffers& buf) {
        gemm(row_major_gemm(p), buf.get<float>("a").data(), buf.get<float>("b").data(), buf.get<float>("c").data());
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const auto config = matmul_config(p["tile"], p["wg"]);
        if (!config) throw Error("matmul: no register block for tile and wg");
        return VulkanPlan{
            {matmul_dispatch(*config, row_major_gemm(p), MatmulOperands{}, limits, {"a", "b", "c"}, "matmul")}};
      });
}
