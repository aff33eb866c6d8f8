// y[i] = the sum of x over i's group of 4 (x[4 (i / 4)] .. x[4 (i / 4) + 3]): a kernel whose
// shader needs a device feature (subgroup clustered operations). Where the device lacks it, the
// case is skipped, naming the shader and the feature. Left out of the default suite: its shader
// has not been checked on a device that has the feature.
#include "perfgate/registry.h"

using namespace perfgate;

namespace {
constexpr std::size_t kCluster = 4;  // subgroupClusteredAdd's cluster size in the shader
constexpr std::uint32_t kWorkgroup = 64;
}  // namespace

PERFGATE_KERNEL(cluster_sum) {
  return KernelDef("cluster_sum")
      .describe("y[i] = sum of x over i's group of 4, by subgroup clustered add (a device feature)")
      .in_default_suite(false)
      .axis("n", {1 << 16})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"x", ElementType::f32, n, BufferRole::input},
                                       {"y", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4 * n, 4 * n, 3 * n};
      })
      .reference(
          [](const Params&, const Buffers& b) {
            auto x = b.get<float>("x");
            std::vector<double> y(x.size());
            for (std::size_t i = 0; i < y.size(); ++i)
              for (std::size_t k = 0; k < kCluster; ++k) y[i] += x[i / kCluster * kCluster + k];
            return expect("y", std::move(y));
          },
          1e-6, "three float32 additions per element, in any order")
      .valid([](const Params& p, Backend) { return p["n"] % kWorkgroup == 0; })
      .cpu([](const Params&, Buffers& b) {
        auto x = b.get<float>("x");
        auto y = b.get<float>("y");
        for (std::size_t i = 0; i < y.size(); i += kCluster) {
          float sum = 0;
          for (std::size_t k = 0; k < kCluster; ++k) sum += x[i + k];
          for (std::size_t k = 0; k < kCluster; ++k) y[i + k] = sum;
        }
      })
      .vulkan([](const Params& p, const DeviceLimits&) {
        Dispatch d;
        d.shader = "cluster_sum/cluster_sum";
        d.bindings = {"x", "y"};
        d.specialization = {kWorkgroup};
        d.groups = {static_cast<std::uint32_t>(p["n"]) / kWorkgroup, 1, 1};
        return VulkanPlan{{d}};
      });
}
