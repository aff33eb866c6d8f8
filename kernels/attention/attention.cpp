// Attention components of one transformer layer over a block of seq tokens (prefill, no mask):
//   qkv = x Wqkv                                   attention_qkv            [seq, 3d]
//   scores_h = Q_h K_h^T / sqrt(hd), per head      attention_scores         [heads, seq, seq]
//   probs = softmax(scores) per row                attention_softmax        [heads, seq, seq]
//   attn_h = probs_h V_h, heads side by side       attention_weighted_sum   [seq, d]
//   out = attn Wo                                  attention_output         [seq, d]
// Each is a kernel of its own, and attention_layer runs all five as one plan whose stages are
// timed apart (the per-component breakdown). Q, K, V of head h are the columns h*hd, d + h*hd
// and 2d + h*hd of qkv (hd = d / heads). The GPU stages are the matmul and softmax shaders.
#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <random>

#include "kernels/common/gemm_cpu.h"
#include "kernels/common/matmul_plan.h"
#include "kernels/common/row_plan.h"
#include "kernels/common/softmax_cpu.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

struct Dims {
  std::int64_t seq, d, heads, hd;
  explicit Dims(const Params& p)
      : seq(p["seq"]), d(p["dmodel"]), heads(p["heads"]), hd(p["dmodel"] / p["heads"]) {}
  std::size_t count(const std::string& buffer) const {
    static const std::map<std::string, std::function<std::int64_t(const Dims&)>> sizes{
        {"x", [](const Dims& s) { return s.seq * s.d; }},
        {"wqkv", [](const Dims& s) { return s.d * 3 * s.d; }},
        {"wo", [](const Dims& s) { return s.d * s.d; }},
        {"qkv", [](const Dims& s) { return s.seq * 3 * s.d; }},
        {"scores", [](const Dims& s) { return s.heads * s.seq * s.seq; }},
        {"probs", [](const Dims& s) { return s.heads * s.seq * s.seq; }},
        {"attn", [](const Dims& s) { return s.seq * s.d; }},
        {"out", [](const Dims& s) { return s.seq * s.d; }}};
    return std::size_t(sizes.at(buffer)(*this));
  }
  double bytes(const std::string& buffer) const { return 4.0 * double(count(buffer)); }
};

// The four products as GEMMs (per head for scores and weighted sum).
GemmShape qkv_shape(const Dims& s) { return {s.seq, 3 * s.d, s.d, s.d, 3 * s.d, 3 * s.d, false, 1.0f}; }
GemmShape scores_shape(const Dims& s) {
  return {s.seq, s.seq, s.hd, 3 * s.d, 3 * s.d, s.seq, true, float(1 / std::sqrt(double(s.hd)))};
}
GemmShape weighted_shape(const Dims& s) { return {s.seq, s.hd, s.seq, s.seq, 3 * s.d, s.d, false, 1.0f}; }
GemmShape output_shape(const Dims& s) { return {s.seq, s.d, s.d, s.d, s.d, s.d, false, 1.0f}; }

// ---- CPU stages (float32) ----
void cpu_qkv(const Dims& s, const float* x, const float* wqkv, float* qkv) {
  gemm(qkv_shape(s), x, wqkv, qkv);
}
void cpu_scores(const Dims& s, const float* qkv, float* scores) {
  gemm_batched(scores_shape(s), s.heads, qkv, s.hd, qkv + s.d, s.hd, scores, s.seq * s.seq);
}
void cpu_softmax(const Dims& s, const float* scores, float* probs) {
  softmax_rows(scores, probs, s.heads * s.seq, s.seq);
}
void cpu_weighted(const Dims& s, const float* probs, const float* qkv, float* attn) {
  gemm_batched(weighted_shape(s), s.heads, probs, s.seq * s.seq, qkv + 2 * s.d, s.hd, attn, s.hd);
}
void cpu_output(const Dims& s, const float* attn, const float* wo, float* out) {
  gemm(output_shape(s), attn, wo, out);
}

// ---- float64 reference stages ----
using Vec = std::vector<double>;
Vec widen(std::span<const float> v) { return Vec(v.begin(), v.end()); }

// C = alpha * A B over strided double operands, `batch` times.
void ref_gemm(const GemmShape& g, std::int64_t batch, const double* a, std::int64_t as, const double* b,
              std::int64_t bs, double* c, std::int64_t cs) {
#pragma omp parallel for collapse(2) schedule(static)
  for (std::int64_t h = 0; h < batch; ++h)
    for (std::int64_t i = 0; i < g.m; ++i)
      for (std::int64_t j = 0; j < g.n; ++j) {
        double sum = 0;
        for (std::int64_t k = 0; k < g.k; ++k)
          sum += a[h * as + i * g.lda + k] *
                 (g.transpose_b ? b[h * bs + j * g.ldb + k] : b[h * bs + k * g.ldb + j]);
        c[h * cs + i * g.ldc + j] = double(g.alpha) * sum;
      }
}
Vec ref_qkv(const Dims& s, const Vec& x, const Vec& w) {
  Vec qkv(s.count("qkv"));
  ref_gemm(qkv_shape(s), 1, x.data(), 0, w.data(), 0, qkv.data(), 0);
  return qkv;
}
Vec ref_scores(const Dims& s, const Vec& qkv) {
  Vec scores(s.count("scores"));
  ref_gemm(scores_shape(s), s.heads, qkv.data(), s.hd, qkv.data() + s.d, s.hd, scores.data(), s.seq * s.seq);
  return scores;
}
// `causal`: row i of each head sees keys 0..i only.
Vec ref_softmax(const Dims& s, const Vec& scores, bool causal = false) {
  Vec probs(scores.size());
  for (std::int64_t r = 0; r < s.heads * s.seq; ++r) {
    const double* x = scores.data() + r * s.seq;
    double* y = probs.data() + r * s.seq;
    const std::int64_t keys = causal ? r % s.seq + 1 : s.seq;
    double m = x[0], sum = 0;
    for (std::int64_t j = 0; j < keys; ++j) m = std::max(m, x[j]);
    for (std::int64_t j = 0; j < s.seq; ++j) sum += y[j] = j < keys ? std::exp(x[j] - m) : 0.0;
    for (std::int64_t j = 0; j < s.seq; ++j) y[j] /= sum;
  }
  return probs;
}
Vec ref_weighted(const Dims& s, const Vec& probs, const Vec& qkv) {
  Vec attn(s.count("attn"));
  ref_gemm(weighted_shape(s), s.heads, probs.data(), s.seq * s.seq, qkv.data() + 2 * s.d, s.hd, attn.data(),
           s.hd);
  return attn;
}
Vec ref_output(const Dims& s, const Vec& attn, const Vec& wo) {
  Vec out(s.count("out"));
  ref_gemm(output_shape(s), 1, attn.data(), 0, wo.data(), 0, out.data(), 0);
  return out;
}

// The fused pass on the CPU, per head and query row: the flash-attention recurrence over blocks
// of keys (scores of a block, its maximum, then one rescale of the running sum and output).
void cpu_fused(const Dims& s, bool causal, const float* qkv, float* attn) {
  constexpr std::int64_t kBlock = 64;
  const float scale = float(1 / std::sqrt(double(s.hd)));
#pragma omp parallel for collapse(2) schedule(dynamic, 16)
  for (std::int64_t h = 0; h < s.heads; ++h)
    for (std::int64_t i = 0; i < s.seq; ++i) {
      const float* q = qkv + i * 3 * s.d + h * s.hd;
      std::vector<float> acc(std::size_t(s.hd), 0.0f);
      float scores[kBlock];
      float running_max = -INFINITY, running_sum = 0;
      const std::int64_t keys = causal ? i + 1 : s.seq;
      for (std::int64_t j0 = 0; j0 < keys; j0 += kBlock) {
        const std::int64_t count = std::min(kBlock, keys - j0);
        float block_max = -INFINITY;
        for (std::int64_t jj = 0; jj < count; ++jj) {
          const float* k = qkv + (j0 + jj) * 3 * s.d + s.d + h * s.hd;
          float dot = 0;
#pragma omp simd reduction(+ : dot)
          for (std::int64_t e = 0; e < s.hd; ++e) dot += q[e] * k[e];
          scores[jj] = dot * scale;
          block_max = std::max(block_max, scores[jj]);
        }
        const float new_max = std::max(running_max, block_max);
        const float correction = std::exp(running_max - new_max);
        running_sum *= correction;
        for (float& a : acc) a *= correction;
        for (std::int64_t jj = 0; jj < count; ++jj) {
          const float p = std::exp(scores[jj] - new_max);
          running_sum += p;
          const float* v = qkv + (j0 + jj) * 3 * s.d + 2 * s.d + h * s.hd;
#pragma omp simd
          for (std::int64_t e = 0; e < s.hd; ++e) acc[std::size_t(e)] += p * v[e];
        }
        running_max = new_max;
      }
      float* o = attn + i * s.d + h * s.hd;
      for (std::int64_t e = 0; e < s.hd; ++e) o[e] = acc[std::size_t(e)] / running_sum;
    }
}

// ---- Vulkan stages ----
// The largest tile in {64, 32, 16} that divides the product, with 16 outputs per thread.
Dispatch gpu_matmul(const GemmShape& g, const MatmulOperands& o, const DeviceLimits& limits,
                    std::vector<std::string> bindings, std::string stage) {
  for (std::int64_t tile : {64, 32, 16}) {
    if (g.m % tile || g.n % tile) continue;
    return matmul_dispatch(*matmul_config(tile, tile * tile / 16), g, o, limits, std::move(bindings),
                           std::move(stage));
  }
  throw Error("attention: " + stage + " has no tile dividing " + std::to_string(g.m) + " x " +
              std::to_string(g.n));
}
std::uint32_t u32(std::int64_t v) { return std::uint32_t(v); }
Dispatch gpu_qkv(const Dims& s, const DeviceLimits& l) {
  return gpu_matmul(qkv_shape(s), {}, l, {"x", "wqkv", "qkv"}, "qkv");
}
Dispatch gpu_scores(const Dims& s, const DeviceLimits& l) {
  const MatmulOperands o{0, u32(s.hd), u32(s.d), u32(s.hd), 0, u32(s.seq * s.seq), u32(s.heads)};
  return gpu_matmul(scores_shape(s), o, l, {"qkv", "qkv", "scores"}, "scores");
}
Dispatch gpu_softmax(const Dims& s, const DeviceLimits& l) {
  const std::int64_t wg = std::clamp<std::int64_t>(std::bit_floor(std::uint64_t(s.seq / 4)), 1,
                                                   std::min<std::int64_t>(256, l.max_workgroup_invocations));
  return row_dispatch("softmax/softmax", l, wg, items_per_thread(s.seq / 4, wg, "softmax"), s.heads * s.seq,
                      {u32(s.heads * s.seq), u32(s.seq)}, {"scores", "probs"}, "softmax");
}
Dispatch gpu_weighted(const Dims& s, const DeviceLimits& l) {
  const MatmulOperands o{0, u32(s.seq * s.seq), u32(2 * s.d), u32(s.hd), 0, u32(s.hd), u32(s.heads)};
  return gpu_matmul(weighted_shape(s), o, l, {"probs", "qkv", "attn"}, "weighted_sum");
}
// A thread per query row, 64 rows of one head per workgroup (kernels/attention/attention_fused.comp).
Dispatch gpu_fused(const Dims& s, bool causal, const DeviceLimits& l) {
  const std::uint32_t wg = std::min<std::uint32_t>(64, l.max_workgroup_invocations);
  Dispatch d{"attention/attention_fused",
             {"qkv", "attn"},
             {wg, u32(s.hd), causal ? 1u : 0u},
             {u32(s.seq), u32(s.d), std::bit_cast<std::uint32_t>(float(1 / std::sqrt(double(s.hd))))},
             {u32((s.seq + wg - 1) / wg), u32(s.heads), 1},
             "fused"};
  return d;
}
Dispatch gpu_output(const Dims& s, const DeviceLimits& l) {
  return gpu_matmul(output_shape(s), {}, l, {"attn", "wo", "out"}, "output");
}

// ---- Definitions ----
constexpr double kTolerance = 1e-4;
constexpr const char* kWhy =
    "float32 GEMM sums (random-walk rounding ~eps/2 * sqrt(k) = 4e-6 relative at k = 4096) and "
    "a float32 softmax (exp to a few ulp, row sums ~eps/2 * sqrt(seq)); across the five "
    "stages of the layer the errors add, not multiply, since softmax is 1-Lipschitz and the "
    "scores stay O(1) with 1/sqrt(d)-scaled weights; 1e-4 leaves >10x";

// Weights scaled by 1/sqrt(d), as trained layers are: q, k, v and the scores stay O(1), so the
// softmax is neither flat nor one-hot.
void fill_attention(const Dims& s, Buffers& buf, Rng& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const float w_scale = float(1 / std::sqrt(double(s.d)));
  for (auto& b : buf.all()) {
    if (b.spec.role != BufferRole::input) continue;
    const float scale = b.spec.name.starts_with('w') ? w_scale : 1.0f;
    for (float& v : b.as<float>()) v = scale * u(rng);
  }
}

// A kernel over `inputs` -> `outputs` (plus scratch), with its cost, reference and stages.
KernelDef attention_kernel(const std::string& name, const std::string& description,
                           std::vector<std::string> inputs, std::vector<std::string> outputs,
                           std::vector<std::string> scratch, std::function<double(const Dims&)> flops,
                           std::function<Vec(const Dims&, const Buffers&)> reference,
                           std::function<void(const Dims&, Buffers&)> cpu,
                           std::function<VulkanPlan(const Dims&, const DeviceLimits&)> vulkan) {
  return KernelDef(name)
      .describe(description)
      // Default: a 128-token block of a d = 512, 8-head layer. --axis seq=2048 --axis
      // dmodel=4096 --axis heads=32 is a LLaMA-7B layer.
      .axis("seq", {128})
      .axis("dmodel", {512})
      .axis("heads", {8})
      .valid([](const Params& p, Backend backend) {
        if (p["seq"] < 16 || p["heads"] < 1 || p["dmodel"] % p["heads"]) return false;
        const std::int64_t hd = p["dmodel"] / p["heads"];
        // GPU tiles need multiples of 16 everywhere; the softmax reads rows as vec4.
        return backend == Backend::cpu || (p["seq"] % 16 == 0 && hd % 16 == 0);
      })
      .buffers([inputs, outputs, scratch](const Params& p) {
        const Dims s(p);
        std::vector<BufferSpec> specs;
        for (const auto& n : inputs) specs.push_back({n, ElementType::f32, s.count(n), BufferRole::input});
        for (const auto& n : scratch) specs.push_back({n, ElementType::f32, s.count(n), BufferRole::scratch});
        for (const auto& n : outputs) specs.push_back({n, ElementType::f32, s.count(n), BufferRole::output});
        return specs;
      })
      .fill([](const Params& p, Buffers& buf, Rng& rng) { fill_attention(Dims(p), buf, rng); })
      .cost([inputs, outputs, flops](const Params& p) {
        const Dims s(p);
        Cost c;
        for (const auto& n : inputs) c.bytes_read += s.bytes(n);
        for (const auto& n : outputs) c.bytes_written += s.bytes(n);
        c.flops = flops(s);
        return c;
      })
      .reference(
          [reference, output = outputs.front()](const Params& p, const Buffers& in) {
            return Expected{{output, reference(Dims(p), in)}};
          },
          kTolerance, kWhy)
      .cpu([cpu](const Params& p, Buffers& buf) { cpu(Dims(p), buf); })
      .vulkan([vulkan](const Params& p, const DeviceLimits& l) { return vulkan(Dims(p), l); });
}

double qkv_flops(const Dims& s) { return 2.0 * double(s.seq * 3 * s.d * s.d); }
double scores_flops(const Dims& s) { return 2.0 * double(s.heads * s.seq * s.seq * s.hd); }
double softmax_flops(const Dims& s) { return 5.0 * double(s.heads * s.seq * s.seq); }
double output_flops(const Dims& s) { return 2.0 * double(s.seq * s.d * s.d); }

const float* in(const Buffers& b, const char* name) { return b.get<float>(name).data(); }
float* out(Buffers& b, const char* name) { return b.get<float>(name).data(); }
Vec wide(const Buffers& b, const char* name) { return widen(b.get<float>(name)); }

}  // namespace

PERFGATE_KERNEL(attention_qkv) {
  return attention_kernel(
      "attention_qkv", "attention QKV projection: qkv = x Wqkv, [seq, d] x [d, 3d]", {"x", "wqkv"}, {"qkv"},
      {}, qkv_flops,
      [](const Dims& s, const Buffers& b) { return ref_qkv(s, wide(b, "x"), wide(b, "wqkv")); },
      [](const Dims& s, Buffers& b) { cpu_qkv(s, in(b, "x"), in(b, "wqkv"), out(b, "qkv")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_qkv(s, l)}}; });
}

PERFGATE_KERNEL(attention_scores) {
  return attention_kernel(
      "attention_scores", "attention scores per head: Q K^T / sqrt(hd), [seq, hd] x [hd, seq]", {"qkv"},
      {"scores"}, {}, scores_flops,
      [](const Dims& s, const Buffers& b) { return ref_scores(s, wide(b, "qkv")); },
      [](const Dims& s, Buffers& b) { cpu_scores(s, in(b, "qkv"), out(b, "scores")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_scores(s, l)}}; });
}

PERFGATE_KERNEL(attention_softmax) {
  return attention_kernel(
      "attention_softmax", "attention probabilities: softmax of each score row, heads x seq rows", {"scores"},
      {"probs"}, {}, softmax_flops,
      [](const Dims& s, const Buffers& b) { return ref_softmax(s, wide(b, "scores")); },
      [](const Dims& s, Buffers& b) { cpu_softmax(s, in(b, "scores"), out(b, "probs")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_softmax(s, l)}}; });
}

PERFGATE_KERNEL(attention_weighted_sum) {
  return attention_kernel(
      "attention_weighted_sum", "attention weighted sum per head: probs V, [seq, seq] x [seq, hd]",
      {"probs", "qkv"}, {"attn"}, {}, scores_flops,
      [](const Dims& s, const Buffers& b) { return ref_weighted(s, wide(b, "probs"), wide(b, "qkv")); },
      [](const Dims& s, Buffers& b) { cpu_weighted(s, in(b, "probs"), in(b, "qkv"), out(b, "attn")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_weighted(s, l)}}; });
}

PERFGATE_KERNEL(attention_output) {
  return attention_kernel(
      "attention_output", "attention output projection: out = attn Wo, [seq, d] x [d, d]", {"attn", "wo"},
      {"out"}, {}, output_flops,
      [](const Dims& s, const Buffers& b) { return ref_output(s, wide(b, "attn"), wide(b, "wo")); },
      [](const Dims& s, Buffers& b) { cpu_output(s, in(b, "attn"), in(b, "wo"), out(b, "out")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_output(s, l)}}; });
}

// Scores, softmax and weighted sum in one pass (flash attention): reads qkv once, writes attn,
// never the seq x seq scores. Beside the three stages it replaces on the same shapes, it shows
// the time and bytes the fusion saves. `causal` masks each row's later keys, which also halves
// the work.
PERFGATE_KERNEL(attention_fused) {
  auto causal_pairs = [](const Dims& s, bool causal) {
    return causal ? double(s.seq) * double(s.seq + 1) / 2 : double(s.seq) * double(s.seq);
  };
  return attention_kernel(
             "attention_fused",
             "fused attention per head: softmax(Q K^T / sqrt(hd)) V without the score matrix, "
             "causal mask as an axis",
             {"qkv"}, {"attn"}, {}, [](const Dims&) { return 0.0; },
             [](const Dims&, const Buffers&) { return Vec{}; }, [](const Dims&, Buffers&) {},
             [](const Dims&, const DeviceLimits&) { return VulkanPlan{}; })
      .axis("causal", {0})
      .axis_limits("causal", 0, 1)
      .cost([causal_pairs](const Params& p) {
        const Dims s(p);
        // Per pair: a dot product and a weighted sum of hd (2 x 2 hd flops) and ~5 for the
        // softmax, as the three stages count them.
        const double pairs = double(s.heads) * causal_pairs(s, p["causal"] != 0);
        return Cost{s.bytes("qkv"), s.bytes("attn"), pairs * (4.0 * double(s.hd) + 5)};
      })
      .reference(
          [](const Params& p, const Buffers& b) {
            const Dims s(p);
            const Vec qkv = wide(b, "qkv");
            return Expected{{"attn", ref_weighted(s, ref_softmax(s, ref_scores(s, qkv), p["causal"] != 0), qkv)}};
          },
          kTolerance, kWhy)
      .cpu([](const Params& p, Buffers& b) { cpu_fused(Dims(p), p["causal"] != 0, in(b, "qkv"), out(b, "attn")); })
      .vulkan([](const Params& p, const DeviceLimits& l) {
        const Dims s(p);
        if (s.hd > 128) throw Error("attention_fused: head dimension " + std::to_string(s.hd) + " over 128");
        return VulkanPlan{{gpu_fused(s, p["causal"] != 0, l)}};
      });
}

// The whole layer: intermediates are scratch, so the cost is the layer's minimal traffic (x and
// the weights read, out written) and the stages' times give the breakdown.
PERFGATE_KERNEL(attention_layer) {
  return attention_kernel(
      "attention_layer",
      "one attention layer, five stages timed apart: qkv, scores, softmax, "
      "weighted_sum, output",
      {"x", "wqkv", "wo"}, {"out"}, {"qkv", "scores", "probs", "attn"},
      [](const Dims& s) { return qkv_flops(s) + 2 * scores_flops(s) + softmax_flops(s) + output_flops(s); },
      [](const Dims& s, const Buffers& b) {
        const Vec qkv = ref_qkv(s, wide(b, "x"), wide(b, "wqkv"));
        return ref_output(s, ref_weighted(s, ref_softmax(s, ref_scores(s, qkv)), qkv), wide(b, "wo"));
      },
      [](const Dims& s, Buffers& b) {
        cpu_qkv(s, in(b, "x"), in(b, "wqkv"), out(b, "qkv"));
        cpu_scores(s, in(b, "qkv"), out(b, "scores"));
        cpu_softmax(s, in(b, "scores"), out(b, "probs"));
        cpu_weighted(s, in(b, "probs"), in(b, "qkv"), out(b, "attn"));
        cpu_output(s, in(b, "attn"), in(b, "wo"), out(b, "out"));
      },
      [](const Dims& s, const DeviceLimits& l) {
        return VulkanPlan{
            {gpu_qkv(s, l), gpu_scores(s, l), gpu_softmax(s, l), gpu_weighted(s, l), gpu_output(s, l)}};
      });
}
