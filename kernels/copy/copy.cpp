// copy: b = a. The device's practical memory bandwidth: every other kernel's % of peak is
// measured against what this one reaches.
#include <cstring>

#include "perfgate/registry.h"

using namespace perfgate;

PERFGATE_KERNEL(copy) {
  return KernelDef("copy")
      .describe("b = a over n floats: the practical bandwidth ceiling (bytes read + written)")
      .axis("n", {1 << 20, 1 << 25})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, n, BufferRole::input},
                                       {"b", ElementType::f32, n, BufferRole::output}};
      })
      .cost([](const Params& p) {
        const double bytes = 4.0 * static_cast<double>(p["n"]);
        return Cost{bytes, bytes, 0};
      })
      .reference(
          [](const Params&, const Buffers& in) {
            auto a = in.get<float>("a");
            return Expected{{"b", std::vector<double>(a.begin(), a.end())}};
          },
          0.0, "a copy is exact")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict a = buf.get<float>("a").data();
        float* __restrict b = buf.get<float>("b").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
#pragma omp parallel for simd schedule(static)
        for (std::int64_t i = 0; i < n; ++i) b[i] = a[i];
      });
}
