// sampling: top-k / top-p (nucleus) sampling of the next token from a vocabulary-sized logits
// row, as after every decode step. A partial pass finds each chunk's k largest logits (reading
// the logits once: memory-bound), a merge pass takes the k largest candidates, their softmax,
// the nucleus (the shortest prefix whose probability reaches top_p), and draws a token with a
// seeded uniform number per row. Checked against the reference's chosen token set.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>
#include <set>

#include "kernels/common/row_plan.h"
#include "perfgate/registry.h"

using namespace perfgate;
using namespace perfgate::kernels;

namespace {

constexpr std::uint32_t kSeed = 20240601;
constexpr float kTopP = 0.9f;
// Logits per thread in the partial pass: on an H100, 32 beat 8 and 16 at every wg and rounds
// tried, and 64 at wg=128 (docs/performance.md).
constexpr std::int64_t kItems = 32;
// The partial pass keeps a bit per logit of a thread in a uint and loads 4 at a time.
static_assert(kItems <= 32 && kItems % 4 == 0);

constexpr std::int64_t kMaxK = 64;  // the merge pass keeps the selection in shared memory
// The CPU's partial pass: a chunk's cost is its scan plus about k ln(chunk / k) candidates, so
// long chunks (2048 cost 21 us a 32000-logit row, 16384 6 us; docs/performance.md); the filter's
// slots hold the k kept and a few blocks' worth of new candidates.
constexpr std::int64_t kCpuChunk = 16384;
constexpr std::int64_t kCpuFilter = 128;
static_assert(kCpuFilter >= kMaxK + 16);
constexpr std::int64_t kParallelChunks = 4;  // fewer run on one thread: waking others costs more

std::int64_t chunk_size(const Params& p, Backend backend) {
  return backend == Backend::cpu ? kCpuChunk : p["rounds"] * p["wg"] * kItems;
}
std::int64_t chunks(const Params& p, std::int64_t chunk) { return (p["vocab"] + chunk - 1) / chunk; }
// Candidate slots per chunk: the CPU writes its chunk's k best; the Vulkan partial pass writes
// whatever passed its threshold, unranked (the merge selects): up to 2 k in one round, cut to k
// when more survived (4 k: a slower merge at batch 64 on an H100); with several rounds the
// whole survivor buffer, 2 wg, so that nothing is ranked in the partial pass (H100, batch 64,
// wg 256, rounds 4: partial 17.2 -> 12.9 us against cutting after the first round and at the end).
std::int64_t slots_per_chunk(const Params& p, Backend backend) {
  if (backend == Backend::cpu) return p["k"];
  return p["rounds"] == 1 ? 2 * p["k"] : 2 * p["wg"];
}
std::int64_t candidates_per_row(const Params& p, Backend backend) {
  return chunks(p, chunk_size(p, backend)) * slots_per_chunk(p, backend);
}
// The scratch holds the candidates of whichever backend writes more.
std::int64_t max_candidates_per_row(const Params& p) {
  const std::int64_t cpu = candidates_per_row(p, Backend::cpu);
  return p.has("wg") ? std::max(cpu, candidates_per_row(p, Backend::vulkan)) : cpu;
}

// The row's uniform number in [0, 1): the PCG hash of topk_merge.glsl.
float uniform01(std::uint32_t seed, std::uint32_t row) {
  std::uint32_t h = seed ^ (row * 0x9e3779b9u);
  h = h * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  h = (h >> 22u) ^ h;
  return float(h >> 8) * (1.0f / 16777216.0f);
}

struct Candidate {
  float value;
  std::uint32_t token;
};
// Larger value first, ties to the smaller token: the order of the GPU's selection.
bool before(const Candidate& a, const Candidate& b) {
  return a.value > b.value || (a.value == b.value && a.token < b.token);
}

// The k best of `candidates` (partially sorted in place), descending.
void top_k(std::vector<Candidate>& candidates, std::size_t k) {
  k = std::min(k, candidates.size());
  std::partial_sort(candidates.begin(), candidates.begin() + std::ptrdiff_t(k), candidates.end(), before);
  candidates.resize(k);
}

// The k best logits of [first, last) of a row, descending, into `best` (kCpuFilter slots): the
// logits above a threshold are gathered, 16 compared at a time, and when the slots fill they are
// cut to the k best, whose worst becomes the threshold. Few pass it (about k ln(n / k) of n
// random logits), so the scan is one vector comparison per 16 logits. A logit equal to the
// threshold comes after the k kept (tokens ascend, ties go to the smaller) and stays out.
std::size_t filter_top_k(const float* logits, std::int64_t first, std::int64_t last, std::size_t k,
                         Candidate* best) {
  std::size_t size = 0;
  float threshold = -INFINITY;
  const auto cut = [&] {
    std::nth_element(best, best + k - 1, best + size, before);
    size = k;
    threshold = best[k - 1].value;
  };
  constexpr std::int64_t kBlock = 16;
  std::int64_t t = first;
  for (; t + kBlock <= last; t += kBlock) {
    int any = 0;
#pragma omp simd reduction(| : any)
    for (std::int64_t j = 0; j < kBlock; ++j) any |= logits[t + j] > threshold;
    if (!any) continue;
    for (std::int64_t j = 0; j < kBlock; ++j)
      if (logits[t + j] > threshold) best[size++] = {logits[t + j], std::uint32_t(t + j)};
    if (size + kBlock > std::size_t(kCpuFilter)) cut();
  }
  for (; t < last; ++t) {
    if (logits[t] > threshold) best[size++] = {logits[t], std::uint32_t(t)};
    if (size == std::size_t(kCpuFilter)) cut();
  }
  if (size > k) cut();
  std::sort(best, best + size, before);
  return size;
}

// Softmax of the selected logits, nucleus, renormalised probabilities and the drawn token.
template <class Real>
struct Nucleus {
  std::vector<Real> probs;  // per selected position, 0 outside the nucleus
  std::size_t kept = 0;
  std::size_t chosen = 0;  // position of the drawn token
};
template <class Real>
Nucleus<Real> nucleus(const std::vector<Real>& sorted_values, float u, std::size_t force_kept = 0) {
  const std::size_t k = sorted_values.size();
  Nucleus<Real> n;
  Real total = 0;
  for (Real v : sorted_values) total += std::exp(v - sorted_values[0]);
  Real cumulative = 0;
  n.kept = k;
  for (std::size_t r = 0; r < k; ++r) {
    cumulative += std::exp(sorted_values[r] - sorted_values[0]) / total;
    if (cumulative >= Real(kTopP)) {
      n.kept = r + 1;
      break;
    }
  }
  if (force_kept) n.kept = force_kept;
  Real kept_total = 0;
  for (std::size_t r = 0; r < n.kept; ++r) kept_total += std::exp(sorted_values[r] - sorted_values[0]);
  n.probs.assign(k, 0);
  Real below = 0;
  n.chosen = n.kept - 1;
  bool found = false;
  for (std::size_t r = 0; r < n.kept; ++r) {
    n.probs[r] = std::exp(sorted_values[r] - sorted_values[0]) / kept_total;
    below += n.probs[r];
    if (!found && Real(u) < below) {
      n.chosen = r;
      found = true;
    }
  }
  return n;
}

CheckResult check_row(const float* logits, std::int64_t vocab, std::size_t k, std::uint32_t row,
                      const std::uint32_t* top_tok, const float* top_prob, std::uint32_t token) {
  const std::string where = "row " + std::to_string(row) + ": ";
  std::vector<Candidate> all(static_cast<std::size_t>(vocab));
  for (std::int64_t t = 0; t < vocab; ++t) all[std::size_t(t)] = {logits[t], std::uint32_t(t)};
  top_k(all, k);
  std::set<std::uint32_t> expected, got;
  for (const auto& c : all) expected.insert(c.token);
  for (std::size_t r = 0; r < k; ++r) {
    if (top_tok[r] >= vocab) return {false, where + "top token " + std::to_string(r) + " out of range"};
    got.insert(top_tok[r]);
    if (r > 0 && logits[top_tok[r]] > logits[top_tok[r - 1]])
      return {false, where + "top tokens not in descending logit order"};
  }
  if (got != expected) return {false, where + "top-k token set differs from the reference's"};
  // Probabilities in float64 over the reference order; where the nucleus boundary is within
  // rounding of top_p, the kernel's nucleus size is taken.
  std::vector<double> values;
  for (const auto& c : all) values.push_back(c.value);
  const float u = uniform01(kSeed, row);
  auto ref = nucleus<double>(values, u);
  std::size_t kept = 0;
  while (kept < k && top_prob[kept] > 0) ++kept;
  if (kept != ref.kept) {
    double cumulative = 0, total = 0;
    for (double v : values) total += std::exp(v - values[0]);
    for (std::size_t r = 0; r < std::min(kept, ref.kept); ++r)
      cumulative += std::exp(values[r] - values[0]) / total;
    if (kept == 0 || std::abs(cumulative - kTopP) > 1e-5)
      return {false, where + "nucleus of " + std::to_string(kept) + " tokens, reference " +
                         std::to_string(ref.kept)};
    ref = nucleus<double>(values, u, kept);
  }
  double diff = 0, norm = 0;
  for (std::size_t r = 0; r < k; ++r) {
    if (!std::isfinite(top_prob[r])) return {false, where + "probability not finite"};
    const double d = top_prob[r] - ref.probs[r];
    diff += d * d;
    norm += ref.probs[r] * ref.probs[r];
  }
  const double error = std::sqrt(diff / norm);
  if (error > 1e-5) return {false, where + "probabilities rel L2 error " + std::to_string(error)};
  // The drawn token: the reference's, or a neighbour when u is within rounding of the boundary.
  const std::uint32_t want = all[ref.chosen].token;
  if (token != want) {
    double below = 0;
    for (std::size_t r = 0; r <= ref.chosen; ++r) below += ref.probs[r];
    const double lower = below - ref.probs[ref.chosen];
    const bool near = std::abs(u - lower) < 1e-5 || std::abs(u - below) < 1e-5;
    if (!near)
      return {false, where + "drew token " + std::to_string(token) + ", reference " + std::to_string(want)};
  }
  return {true, ""};
}

}  // namespace

PERFGATE_KERNEL(sampling) {
  return KernelDef("sampling")
      .describe("top-k (k) then top-p (0.9) sampling over vocab logits per row: partial + merge pass")
      .axis("vocab", {32000, 128256})  // LLaMA-2 and LLaMA-3 vocabularies
      .axis("batch", {1})
      .axis("k", {40})
      .axis("wg", {128}, {Backend::vulkan})
      .axis("rounds", {1}, {Backend::vulkan})  // rounds of wg * 32 logits per partial workgroup
      .valid([](const Params& p, Backend backend) {
        if (p["k"] < 1 || p["k"] > kMaxK || p["vocab"] < p["k"] || p["batch"] < 1) return false;
        if (backend == Backend::cpu) return true;
        if (p["rounds"] < 1 || !valid_row_workgroup(p["wg"])) return false;  // before dividing by them
        const std::int64_t merge_items = (candidates_per_row(p, backend) + p["wg"] - 1) / p["wg"];
        // The selection's threshold is the k-th largest of the threads' maxima: wg >= k.
        return p["wg"] >= p["k"] && merge_items <= 64;
      })
      .buffers([](const Params& p) {
        const auto rows = std::size_t(p["batch"]), k = std::size_t(p["k"]);
        const auto candidates = rows * std::size_t(max_candidates_per_row(p));
        return std::vector<BufferSpec>{
            {"logits", ElementType::f32, rows * std::size_t(p["vocab"]), BufferRole::input},
            {"cand_val", ElementType::f32, candidates, BufferRole::scratch},
            {"cand_tok", ElementType::u32, candidates, BufferRole::scratch},
            {"top_tok", ElementType::u32, rows * k, BufferRole::output},
            {"top_prob", ElementType::f32, rows * k, BufferRole::output},
            {"token", ElementType::u32, rows, BufferRole::output}};
      })
      // Logits ~ N(0, 3): a long-tailed row whose top-k softmax is neither flat nor one-hot.
      .fill([](const Params&, Buffers& buf, Rng& rng) {
        std::normal_distribution<float> normal(0.0f, 3.0f);
        for (float& v : buf.get<float>("logits")) v = normal(rng);
      })
      // Minimal traffic: the logits once, the k tokens and probabilities and the token out;
      // one comparison per logit.
      .cost([](const Params& p) {
        const double rows = double(p["batch"]), k = double(p["k"]);
        return Cost{4 * rows * double(p["vocab"]), rows * (8 * k + 4), rows * double(p["vocab"])};
      })
      .reference([](const Params&, const Buffers&) { return Expected{}; }, 1e-5,
                 "custom check: the top-k token set must equal the reference's exactly (distinct "
                 "logits); probabilities within 1e-5 relative L2 (float32 exp of k differences, "
                 "k-term sums: ~1e-6); the nucleus size and the drawn token must match unless the "
                 "float64 cumulative probability is within 1e-5 of top_p or of the uniform draw")
      .check([](const Params& p, const Buffers& buf) {
        const auto k = std::size_t(p["k"]);
        const auto vocab = p["vocab"];
        for (std::uint32_t row = 0; row < std::uint32_t(p["batch"]); ++row) {
          auto r =
              check_row(buf.get<float>("logits").data() + row * vocab, vocab, k, row,
                        buf.get<std::uint32_t>("top_tok").data() + row * k,
                        buf.get<float>("top_prob").data() + row * k, buf.get<std::uint32_t>("token")[row]);
          if (!r.ok) return r;
        }
        return CheckResult{true, "top-k sets, probabilities (1e-5) and drawn tokens match, " +
                                     std::to_string(p["batch"]) + " rows"};
      })
      .cpu([](const Params& p, Buffers& buf) {
        const auto rows = p["batch"], vocab = p["vocab"], k = p["k"];
        const std::int64_t nchunks = chunks(p, kCpuChunk);
        const float* logits = buf.get<float>("logits").data();
        float* cand_val = buf.get<float>("cand_val").data();
        std::uint32_t* cand_tok = buf.get<std::uint32_t>("cand_tok").data();
        // Partial pass: the k best of each chunk. In parallel only where there are chunks enough
        // to outweigh waking the other threads: vocab=32000 is 2 chunks of 3 us, and a fork and
        // join costs 3 us on a 2-vCPU VM whose threads spin, 20 us where they sleep.
        const bool parallel = rows * nchunks >= kParallelChunks;
#pragma omp parallel if (parallel)
        {
          std::vector<Candidate> best(kCpuFilter);
#pragma omp for collapse(2) schedule(static)
          for (std::int64_t row = 0; row < rows; ++row)
            for (std::int64_t c = 0; c < nchunks; ++c) {
              const std::int64_t first = c * kCpuChunk, last = std::min(vocab, first + kCpuChunk);
              const std::size_t found =
                  filter_top_k(logits + row * vocab, first, last, std::size_t(k), best.data());
              const std::int64_t out = (row * nchunks + c) * k;
              for (std::int64_t r = 0; r < k; ++r) {
                const bool real = std::size_t(r) < found;
                cand_val[out + r] = real ? best[std::size_t(r)].value : -INFINITY;
                cand_tok[out + r] = real ? best[std::size_t(r)].token : 0xffffffffu;
              }
            }
        }
        // Merge pass.
        std::uint32_t* top_tok = buf.get<std::uint32_t>("top_tok").data();
        float* top_prob = buf.get<float>("top_prob").data();
        std::uint32_t* token = buf.get<std::uint32_t>("token").data();
        for (std::int64_t row = 0; row < rows; ++row) {
          std::vector<Candidate> merged;
          for (std::int64_t c = 0; c < nchunks * k; ++c)
            if (cand_tok[row * nchunks * k + c] != 0xffffffffu)
              merged.push_back({cand_val[row * nchunks * k + c], cand_tok[row * nchunks * k + c]});
          top_k(merged, std::size_t(k));
          std::vector<float> values;
          for (const auto& c : merged) values.push_back(c.value);
          const auto n = nucleus<float>(values, uniform01(kSeed, std::uint32_t(row)));
          for (std::int64_t r = 0; r < k; ++r) {
            top_tok[row * k + r] = merged[std::size_t(r)].token;
            top_prob[row * k + r] = n.probs[std::size_t(r)];
          }
          token[row] = merged[n.chosen].token;
        }
      })
      .vulkan([](const Params& p, const DeviceLimits& limits) {
        const std::int64_t wg = p["wg"], nchunks = chunks(p, chunk_size(p, Backend::vulkan));
        const auto candidates = std::uint32_t(candidates_per_row(p, Backend::vulkan));
        const auto merge_items = std::uint32_t((candidates + wg - 1) / wg);
        // The subgroup thresholds (topk_select.glsl) shuffle across whole subgroups only, and
        // narrow subgroups make them loose (llvmpipe's 8 lanes: the merge falls back to k rounds
        // of argmax, 5x slower): elsewhere the shared-memory variants.
        const std::int64_t sg = limits.subgroup_size;
        const DeviceLimits variant = wg % sg == 0 && sg >= 32 ? limits : without_subgroups(limits);
        Dispatch partial =
            row_dispatch("sampling/topk_partial", variant, wg, std::uint32_t(kItems), 1,
                         {std::uint32_t(p["vocab"]), std::uint32_t(p["k"]), std::uint32_t(nchunks),
                          std::uint32_t(slots_per_chunk(p, Backend::vulkan))},
                         {"logits", "cand_val", "cand_tok"}, "partial",
                         {std::uint32_t(p["rounds"]), p["vocab"] % 4 == 0 ? 4u : 1u});
        partial.groups = {std::uint32_t(nchunks), std::uint32_t(p["batch"]), 1};
        // The merge's subgroup threshold is looser than ranking all its threads' maxima: faster
        // over one round's 2k slots per chunk (H100, batch 1: 14.0 -> 12.0 us), but over several
        // rounds' full buffers so many strong candidates pass it that the merge falls back to
        // k rounds of argmax (5-10x slower): the shared-memory merge there.
        const DeviceLimits merge_variant = p["rounds"] == 1 ? variant : without_subgroups(limits);
        Dispatch merge = row_dispatch("sampling/topk_merge", merge_variant, wg, merge_items, p["batch"],
                                      {std::uint32_t(p["vocab"]), std::uint32_t(p["k"]), candidates, kSeed,
                                       std::bit_cast<std::uint32_t>(kTopP)},
                                      {"cand_val", "cand_tok", "top_tok", "top_prob", "token"}, "merge",
                                      {std::uint32_t(kMaxK)});
        return VulkanPlan{{partial, merge}};
      });
}
