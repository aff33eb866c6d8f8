// tensor_peak_workgroup: the device's dense f16 matrix throughput (f16 inputs, f32 accumulation)
// at workgroup scope (VK_NV_cooperative_matrix2), beside tensor_peak's subgroup scope: the
// ceiling that matrix kernels are judged against is the higher of the two (measure/peaks.cpp).
// Each workgroup runs `chains` independent chains C_j = A_j * B + C_j of a TM x TK by TK x TN
// product `iters` times in registers and stores each C_j once. A and B hold multiples of 1/8 in
// [-1, 1], so every partial sum is a multiple of 1/64 below 2^16: exact in float32 whatever the
// order, and the reference is iters * A_j * B.
#include <algorithm>
#include <random>
#include <string>

#include "kernels/common/tensor_fragments.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

PERFGATE_KERNEL(tensor_peak_workgroup) {
  // 1,056 workgroups (8 per H100 multiprocessor) of 2 chains of 64x64x32 over 256 invocations:
  // the best of the sweep on docs/performance.md (656 TFLOP/s; 4 chains 646).
  return KernelDef("tensor_peak_workgroup")
      .describe("chains of workgroup-scope f16 matrix multiply-adds (f32 accumulators): tensor peak")
      .axis("groups", {1056})
      .axis("iters", {512})
      .axis("tm", {64})
      .axis("tn", {64})
      .axis("tk", {32})
      .axis("chains", {2})
      .axis("wg", {256})
      .valid([](const Params& p, Backend) {
        const auto chains = p["chains"];
        return (chains == 1 || chains == 2 || chains == 4) && p["iters"] <= 1024 && p["tk"] <= 64 &&
               p["tm"] % kFragment == 0 && p["tn"] % kFragment == 0 && p["tk"] % kFragment == 0 &&
               p["wg"] % 32 == 0;
      })
      .buffers([](const Params& p) {
        const auto tm = std::size_t(p["tm"]), tn = std::size_t(p["tn"]), tk = std::size_t(p["tk"]);
        const auto chains = std::size_t(p["chains"]), groups = std::size_t(p["groups"]);
        return std::vector<BufferSpec>{
            {"a", ElementType::f16, chains * tm * tk, BufferRole::input},
            {"b", ElementType::f16, tk * tn, BufferRole::input},
            {"c", ElementType::f32, groups * chains * tm * tn, BufferRole::output}};
      })
      .fill([](const Params&, Buffers& buf, Rng& rng) {
        std::uniform_int_distribution<int> eighths(-8, 8);
        for (auto* name : {"a", "b"})
          for (std::uint16_t& x : buf.get<std::uint16_t>(name)) x = to_half(float(eighths(rng)) / 8);
      })
      .cost([](const Params& p) {
        const double tm = double(p["tm"]), tn = double(p["tn"]), tk = double(p["tk"]);
        const double chains = double(p["chains"]), groups = double(p["groups"]);
        return Cost{2.0 * (chains * tm * tk + tk * tn), 4.0 * groups * chains * tm * tn,
                    2.0 * tm * tn * tk * chains * groups * double(p["iters"]), true};
      })
      .reference(
          [](const Params& p, const Buffers& in) {
            auto a = in.get<std::uint16_t>("a");
            auto b = in.get<std::uint16_t>("b");
            const auto tm = std::size_t(p["tm"]), tn = std::size_t(p["tn"]), tk = std::size_t(p["tk"]);
            const auto chains = std::size_t(p["chains"]), groups = std::size_t(p["groups"]);
            std::vector<double> product(chains * tm * tn);  // iters * A_j * B, the same for every group
            for (std::size_t r = 0; r < chains * tm; ++r)
              for (std::size_t col = 0; col < tn; ++col) {
                double sum = 0;
                for (std::size_t k = 0; k < tk; ++k)
                  sum += double(from_half(a[r * tk + k])) * double(from_half(b[k * tn + col]));
                product[r * tn + col] = double(p["iters"]) * sum;
              }
            std::vector<double> c(groups * product.size());
            for (std::size_t g = 0; g < groups; ++g)
              std::copy(product.begin(), product.end(), c.begin() + std::ptrdiff_t(g * product.size()));
            return expect("c", std::move(c));
          },
          1e-6,
          "every partial sum is a multiple of 1/64 below 2^16 (iters <= 1024, tk <= 64): exact in float32")
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const auto wg = std::uint32_t(p["wg"]);
        if (limits.cooperative_matrix_workgroup && wg > limits.matrix_workgroup_max_invocations)
          throw Error("tensor_peak_workgroup: wg=" + std::to_string(wg) + " is over the device's " +
                      std::to_string(limits.matrix_workgroup_max_invocations) +
                      " invocations for workgroup-scope matrices");
        Dispatch d;
        d.shader = "tensor_peak_workgroup/tensor_peak_workgroup";
        d.bindings = {"a", "b", "c"};
        d.push_constants = {std::uint32_t(p["groups"]), std::uint32_t(p["iters"])};
        d.specialization = {wg, std::uint32_t(p["tm"]), std::uint32_t(p["tn"]), std::uint32_t(p["tk"]),
                            std::uint32_t(p["chains"])};
        d.groups = {std::uint32_t(p["groups"]), 1, 1};
        d.stage = "tensor_peak";
        return VulkanPlan{{std::move(d)}};
      });
}
