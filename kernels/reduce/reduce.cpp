// reduce: sum of n floats. Read-only bandwidth: one pass over the input, one float written.
#include <random>

#include "perfgate/registry.h"

using namespace perfgate;

namespace {
constexpr std::size_t kPartials = 4096;  // first-pass results on the GPU (scratch)
}

PERFGATE_KERNEL(reduce) {
  return KernelDef("reduce")
      .describe("sum = a[0] + ... + a[n-1] over n floats (read-only bandwidth)")
      .axis("n", {1 << 20, 1 << 25})
      .buffers([](const Params& p) {
        const auto n = static_cast<std::size_t>(p["n"]);
        return std::vector<BufferSpec>{{"a", ElementType::f32, n, BufferRole::input},
                                       {"partials", ElementType::f32, kPartials, BufferRole::scratch},
                                       {"sum", ElementType::f32, 1, BufferRole::output}};
      })
      // Positive inputs: a sum of values in [-1, 1] cancels towards 0, which would make the
      // relative error meaningless.
      .fill([](const Params&, Buffers& buf, Rng& rng) {
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (float& x : buf.get<float>("a")) x = u(rng);
      })
      .cost([](const Params& p) {
        const double n = static_cast<double>(p["n"]);
        return Cost{4.0 * n, 4.0, n};
      })
      .reference(
          [](const Params&, const Buffers& in) {
            double sum = 0;
            for (float x : in.get<float>("a")) sum += x;
            return Expected{{"sum", {sum}}};
          },
          1e-4,
          "float32 partial sums: each lane adds <= 2^22 values in [0,1); rounding errors of "
          "eps/2 * partial sum accumulate like a random walk, ~1e-5 of the total")
      .cpu([](const Params& p, Buffers& buf) {
        const float* __restrict a = buf.get<float>("a").data();
        const auto n = static_cast<std::int64_t>(p["n"]);
        float sum = 0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
        for (std::int64_t i = 0; i < n; ++i) sum += a[i];
        buf.get<float>("sum")[0] = sum;
      });
}
