// Attention components of one transformer layer over a block of seq tokens (prefill, no mask):
//   qkv = x Wqkv                                   attention_qkv            [seq, 3d]
//   scores_h = Q_h K_h^T / sqrt(hd), per head      attention_scores         [heads, seq, seq]
//   probs = softmax(scores) per row                attention_softmax        [heads, seq, seq]
//   attn_h = probs_h V_h, heads side by side       attention_weighted_sum   [seq, d]
//   out = attn Wo                                  attention_output         [seq, d]
// Each is a kernel of its own, and attention_layer runs all five as one plan whose stages are
// timed apart (the per-component breakdown). Q, K, V of head h are the columns h*hd, d + h*hd
// and 2d + h*hd of qkv (hd = d / heads). The GPU stages are the matmul and softmax shaders.
#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <random>

#include "attention_fused_paths.h"
#include "attention_reference.h"
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
        {"kv16", [](const Dims& s) { return s.seq * s.d; }},  // K and V as f16: 2d halves a token
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

// ---- float64 reference rows (kernels/attention/attention_reference.h) ----
const float* in(const Buffers& b, const char* name) { return b.get<float>(name).data(); }

RowReference qkv_rows(const Dims& s, const Buffers& b) {
  const float *x = in(b, "x"), *w = in(b, "wqkv");
  return {"qkv", s.seq, 3 * s.d, 2.0 * double(3 * s.d * s.d), [=](std::int64_t i, double* out) {
            const std::int64_t row[1] = {i};
            rows_times(x, s.d, row, w, 3 * s.d, 3 * s.d, s.d, out);
          }};
}
// Row (h, i) of the scores: Q_h[i] . K_h[j] / sqrt(hd) for every key j.
RowReference scores_rows(const Dims& s, const Buffers& b) {
  const float* qkv = in(b, "qkv");
  return {"scores", s.heads * s.seq, s.seq, 2.0 * double(s.seq * s.hd), [=](std::int64_t r, double* out) {
            const std::int64_t h = r / s.seq, i = r % s.seq;
            const float* q = qkv + i * 3 * s.d + h * s.hd;
            for (std::int64_t j = 0; j < s.seq; ++j) {
              const float* k = qkv + j * 3 * s.d + s.d + h * s.hd;
              double dot = 0;
              for (std::int64_t e = 0; e < s.hd; ++e) dot += double(q[e]) * double(k[e]);
              out[j] = dot / std::sqrt(double(s.hd));
            }
          }};
}
RowReference probs_rows(const Dims& s, const Buffers& b) {
  const float* scores = in(b, "scores");
  return {"probs", s.heads * s.seq, s.seq, 5.0 * double(s.seq), [=](std::int64_t r, double* out) {
            const float* x = scores + r * s.seq;
            const double m = *std::max_element(x, x + s.seq);
            double sum = 0;
            for (std::int64_t j = 0; j < s.seq; ++j) sum += out[j] = std::exp(double(x[j]) - m);
            for (std::int64_t j = 0; j < s.seq; ++j) out[j] /= sum;
          }};
}
// Row i of attn: per head, probs_h[i] V_h.
RowReference weighted_rows(const Dims& s, const Buffers& b) {
  const float *probs = in(b, "probs"), *qkv = in(b, "qkv");
  return {"attn", s.seq, s.d, 2.0 * double(s.seq * s.d), [=](std::int64_t i, double* out) {
            std::fill(out, out + s.d, 0.0);
            for (std::int64_t h = 0; h < s.heads; ++h)
              for (std::int64_t j = 0; j < s.seq; ++j) {
                const double p = probs[(h * s.seq + i) * s.seq + j];
                const float* v = qkv + j * 3 * s.d + 2 * s.d + h * s.hd;
#pragma omp simd
                for (std::int64_t e = 0; e < s.hd; ++e) out[h * s.hd + e] += p * double(v[e]);
              }
          }};
}
RowReference output_rows(const Dims& s, const Buffers& b) {
  const float *attn = in(b, "attn"), *wo = in(b, "wo");
  return {"out", s.seq, s.d, 2.0 * double(s.d * s.d), [=](std::int64_t i, double* out) {
            const std::int64_t row[1] = {i};
            rows_times(attn, s.d, row, wo, s.d, s.d, s.d, out);
          }};
}
RowReference fused_rows(const Dims& s, bool causal, const Buffers& b) {
  const float* qkv = in(b, "qkv");
  return {"attn", s.seq, s.d, 4.0 * double(s.seq * s.d),
          [=](std::int64_t i, double* out) { attention_row(qkv, s.seq, s.d, s.heads, causal, i, out); }};
}
// The layer: qkv for every token first (each output row needs every key and value), blocked;
// then per row its attention row and the output projection.
RowReference layer_rows(const Dims& s, const Buffers& b) {
  const float *x = in(b, "x"), *wqkv = in(b, "wqkv"), *wo = in(b, "wo");
  auto qkv = std::make_shared<std::vector<double>>(s.count("qkv"));
  std::vector<std::int64_t> all(static_cast<std::size_t>(s.seq));
  for (std::int64_t i = 0; i < s.seq; ++i) all[std::size_t(i)] = i;
  rows_times(x, s.d, all, wqkv, 3 * s.d, 3 * s.d, s.d, qkv->data());
  return {"out", s.seq, s.d, 4.0 * double(s.seq * s.d) + 2.0 * double(s.d * s.d),
          [=](std::int64_t i, double* out) {
            std::vector<double> attn(static_cast<std::size_t>(s.d));
            attention_row(qkv->data(), s.seq, s.d, s.heads, false, i, attn.data());
            const std::int64_t row[1] = {0};
            rows_times(attn.data(), s.d, row, wo, s.d, s.d, s.d, out);
          }};
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
// On tensor cores (attention_fused_coopmat.comp): 16 query rows per subgroup of 32, 128 rows of
// one head per workgroup where that still gives every multiprocessor a workgroup (K and V are
// re-read once per workgroup, so fewer and larger ones move fewer bytes), else 64. Elsewhere a
// thread per query row, 64 rows per workgroup (attention_fused.comp).
constexpr std::uint32_t kFusedKeyBlock = 32;  // KB of the tensor-core shader
std::uint32_t fused_tensor_rows(const Dims& s, const DeviceLimits& l) {
  const std::int64_t rows = s.seq / 128 * s.heads >= std::int64_t(l.compute_units) ? 128 : 64;
  const std::int64_t halves =
      std::max(2 * kFusedKeyBlock * (s.hd + 8) + rows * (kFusedKeyBlock + 8), 64 * (s.hd + 8));
  const std::int64_t shared_bytes = 2 * halves + 4 * rows * (kFusedKeyBlock + 4);
  const bool fits = l.cooperative_matrix_f16 && l.subgroup_arithmetic && l.subgroup_size == 32 &&
                    s.hd % 16 == 0 && (s.d % 4) == 0 && rows * 2 <= l.max_workgroup_invocations &&
                    shared_bytes <= std::int64_t(l.max_shared_memory_bytes);
  return fits ? std::uint32_t(rows) : 0;
}
VulkanPlan gpu_fused(const Dims& s, bool causal, std::int64_t path, const DeviceLimits& l) {
  std::vector<std::uint32_t> push{u32(s.seq), u32(s.d),
                                  std::bit_cast<std::uint32_t>(float(1 / std::sqrt(double(s.hd))))};
  // Where the device has tensor cores but not workgroup-scope matrices, or this build lacks the
  // shader, the case is skipped naming which; without tensor cores (llvmpipe) the f32 shader runs.
  if (path > 0 && (l.cooperative_matrix_f16 || l.cooperative_matrix_workgroup))
    return fused_matrix2_plan({s.seq, s.d, s.heads, s.hd}, causal, path, l, std::move(push));
  if (const std::uint32_t rows = fused_tensor_rows(s, l))
    return {{{"attention/attention_fused_coopmat",
              {"qkv", "attn"},
              {rows * 2, u32(s.hd), causal ? 1u : 0u, rows},
              push,
              {u32((s.seq + rows - 1) / rows), u32(s.heads), 1},
              "fused"}}};
  const std::uint32_t wg = std::min<std::uint32_t>(64, l.max_workgroup_invocations);
  return {{{"attention/attention_fused",
            {"qkv", "attn"},
            {wg, u32(s.hd), causal ? 1u : 0u},
            push,
            {u32((s.seq + wg - 1) / wg), u32(s.heads), 1},
            "fused"}}};
}
Dispatch gpu_output(const Dims& s, const DeviceLimits& l) {
  return gpu_matmul(output_shape(s), {}, l, {"attn", "wo", "out"}, "output");
}

// ---- Definitions ----
// The five stages' tolerance: float32 GEMM sums (random-walk rounding ~eps/2 * sqrt(k) = 4e-6
// relative at k = 4096) and a float32 softmax (exp to a few ulp, row sums ~eps/2 * sqrt(seq));
// across the five stages of the layer the errors add, not multiply, since softmax is
// 1-Lipschitz and the scores stay O(1) with 1/sqrt(d)-scaled weights; 1e-4 leaves >10x.
constexpr double kTolerance = 1e-4;
// attention_fused on tensor cores rounds Q / sqrt(hd), K, V and the probabilities P to f16
// (unit roundoff 2^-11 = 4.9e-4, each relative error ~2^-12 / sqrt(3) rms): the output, a
// weighted mean of V rows, inherits ~2.4e-4 from V's rounding and as much from P's, and ~1e-4
// from the scores', together ~3.5e-4 whatever seq (the errors average as the values do).
// An emulation of the shader's roundings measured 2.4e-4 to 3.2e-4 from seq 100 to 2048, causal
// or not, at head dims 32 to 128; 2e-3 leaves 6x. The f32 paths (CPU, llvmpipe) land near 1e-6.
constexpr double kFusedTolerance = 2e-3;

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

// A kernel over `inputs` -> `outputs` (plus scratch), with its cost, reference rows and stages.
using RowsOf = std::function<RowReference(const Dims&, const Buffers&)>;
KernelDef attention_kernel(const std::string& name, const std::string& description,
                           std::vector<std::string> inputs, std::vector<std::string> outputs,
                           std::vector<std::string> scratch, std::function<double(const Dims&)> flops,
                           RowsOf reference, std::function<void(const Dims&, Buffers&)> cpu,
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
      .check([reference](const Params& p, const Buffers& b) {
        const RowReference ref = reference(Dims(p), b);
        return check_rows(ref, b.get<float>(ref.output), kTolerance);
      })
      .cpu([cpu](const Params& p, Buffers& buf) { cpu(Dims(p), buf); })
      .vulkan([vulkan](const Params& p, const DeviceLimits& l) { return vulkan(Dims(p), l); });
}

double qkv_flops(const Dims& s) { return 2.0 * double(s.seq * 3 * s.d * s.d); }
double scores_flops(const Dims& s) { return 2.0 * double(s.heads * s.seq * s.seq * s.hd); }
double softmax_flops(const Dims& s) { return 5.0 * double(s.heads * s.seq * s.seq); }
double output_flops(const Dims& s) { return 2.0 * double(s.seq * s.d * s.d); }

float* out(Buffers& b, const char* name) { return b.get<float>(name).data(); }

}  // namespace

PERFGATE_KERNEL(attention_qkv) {
  return attention_kernel(
      "attention_qkv", "attention QKV projection: qkv = x Wqkv, [seq, d] x [d, 3d]", {"x", "wqkv"}, {"qkv"},
      {}, qkv_flops, qkv_rows,
      [](const Dims& s, Buffers& b) { cpu_qkv(s, in(b, "x"), in(b, "wqkv"), out(b, "qkv")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_qkv(s, l)}}; });
}

PERFGATE_KERNEL(attention_scores) {
  return attention_kernel(
      "attention_scores", "attention scores per head: Q K^T / sqrt(hd), [seq, hd] x [hd, seq]", {"qkv"},
      {"scores"}, {}, scores_flops, scores_rows,
      [](const Dims& s, Buffers& b) { cpu_scores(s, in(b, "qkv"), out(b, "scores")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_scores(s, l)}}; });
}

PERFGATE_KERNEL(attention_softmax) {
  return attention_kernel(
      "attention_softmax", "attention probabilities: softmax of each score row, heads x seq rows", {"scores"},
      {"probs"}, {}, softmax_flops, probs_rows,
      [](const Dims& s, Buffers& b) { cpu_softmax(s, in(b, "scores"), out(b, "probs")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_softmax(s, l)}}; });
}

PERFGATE_KERNEL(attention_weighted_sum) {
  return attention_kernel(
      "attention_weighted_sum", "attention weighted sum per head: probs V, [seq, seq] x [seq, hd]",
      {"probs", "qkv"}, {"attn"}, {}, scores_flops, weighted_rows,
      [](const Dims& s, Buffers& b) { cpu_weighted(s, in(b, "probs"), in(b, "qkv"), out(b, "attn")); },
      [](const Dims& s, const DeviceLimits& l) { return VulkanPlan{{gpu_weighted(s, l)}}; });
}

PERFGATE_KERNEL(attention_output) {
  return attention_kernel(
      "attention_output", "attention output projection: out = attn Wo, [seq, d] x [d, d]", {"attn", "wo"},
      {"out"}, {}, output_flops, output_rows,
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
             "causal mask as an axis; f32 qkv in and attn out, on tensor cores Q, K, V and the "
             "probabilities rounded to f16 with f32 accumulation and softmax (tolerance 2e-3), "
             "elsewhere all f32",
             {"qkv"}, {"attn"}, {"kv16"}, [](const Dims&) { return 0.0; }, {}, [](const Dims&, Buffers&) {},
             [](const Dims&, const DeviceLimits&) { return VulkanPlan{}; })
      .axis("causal", {0})
      .axis_limits("causal", 0, 1)
      // 0: 16 query rows per subgroup on NV fragments where the device has them, else f32; 1 to
      // 24: on VK_NV_cooperative_matrix2 (kFusedWorkgroupPaths) where the device has tensor cores,
      // else f32. The default, 22 (16 rows per subgroup, the softmax in registers, K and V rounded
      // to f16 by a pre-pass), is the fastest on the H100 at seq 4096 (1.20 ms against 2.42 for
      // path 0, the default before 2026-11-26); a device with NV fragments but not
      // VK_NV_cooperative_matrix2 skips it naming the extension.
      .axis("path", {22}, {Backend::vulkan})
      .axis_limits("path", 0, kLastFusedPath)
      .cost([causal_pairs](const Params& p) {
        const Dims s(p);
        // Per pair: a dot product and a weighted sum of hd (2 x 2 hd flops) and ~5 for the
        // softmax, as the three stages count them. The products are matrix-unit work where the
        // device has tensor cores: judged against the tensor peak, as matmul_f16 is.
        const double pairs = double(s.heads) * causal_pairs(s, p["causal"] != 0);
        return Cost{s.bytes("qkv"), s.bytes("attn"), pairs * (4.0 * double(s.hd) + 5), true};
      })
      .check([](const Params& p, const Buffers& b) {
        return check_rows(fused_rows(Dims(p), p["causal"] != 0, b), b.get<float>("attn"), kFusedTolerance);
      })
      .cpu([](const Params& p, Buffers& b) {
        cpu_fused(Dims(p), p["causal"] != 0, in(b, "qkv"), out(b, "attn"));
      })
      .vulkan([](const Params& p, const DeviceLimits& l) {
        const Dims s(p);
        if (s.hd > 128) throw Error("attention_fused: head dimension " + std::to_string(s.hd) + " over 128");
        return gpu_fused(s, p["causal"] != 0, p["path"], l);
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
      layer_rows,
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
