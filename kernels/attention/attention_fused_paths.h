#pragma once
// attention_fused's paths on VK_NV_cooperative_matrix2 (`path` 1 to 24): their table and the
// plan of each, apart from the kernel definitions in attention.cpp.
#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "perfgate/error.h"
#include "perfgate/kernel.h"

namespace perfgate::kernels {

// The shape of the fused pass: tokens, model width, heads and head dimension (d / heads).
struct FusedShape {
  std::int64_t seq, d, heads, hd;
};

// The paths on VK_NV_cooperative_matrix2: query rows per workgroup, keys per block, invocations,
// whether the running maxima move only past a threshold (lazy), whether the next block waits in
// registers as f16 (packed), the shared buffers of K and V (one: two barriers per block; two:
// one), and the shader: workgroup-scope matrices (attention_fused_workgroup.comp), or 16 rows per
// subgroup with the softmax in registers (per_subgroup, attention_fused_rows.comp: rows is half
// the invocations, lazy, packed and buffers do not apply), which with f16kv reads K and V from
// kv16, rounded to f16 by a pre-pass (attention_kv_f16.comp); or (tensor) workgroup-scope
// matrices with Q, K and V loaded through tensor layouts, no staging of ours
// (attention_fused_tensor.comp: lazy, packed and buffers do not apply), K and V from kv16 (with
// f16kv) or from qkv as f32, converted in registers, `unroll` blocks of keys per iteration.
// `path` 1 to kLastFusedPath picks one; 0 is the subgroup NV-fragment or f32 shader
// (attention.cpp). Latency at seq 4096, 32 heads, head dim 128 on the H100 (docs/performance.md)
// in the comments.
struct FusedWorkgroupPath {
  std::uint32_t rows, kb, wg, lazy, packed = 0, buffers = 1, per_subgroup = 0, f16kv = 0, tensor = 0;
  std::uint32_t unroll = 1;
};
inline constexpr FusedWorkgroupPath kFusedWorkgroupPaths[] = {
    {64, 64, 128, 0},               // 1: 5.67 ms
    {64, 32, 128, 0},               // 2: 1.94 ms
    {128, 32, 256, 0},              // 3: 1.44 ms (the default from the first round)
    {128, 64, 256, 0},              // 4: 2.11 ms
    {64, 64, 256, 0},               // 5: 2.51 ms
    {128, 64, 128, 0},              // 6: 9.59 ms
    {128, 32, 256, 1},              // 7: 1.71 ms (the flag's barrier costs more than the skipped work)
    {128, 64, 256, 1},              // 8: 2.72 ms
    {64, 32, 128, 1},               // 9: 1.90 ms
    {64, 64, 256, 1},               // 10: 2.81 ms
    {128, 32, 256, 0, 1},           // 11: 1.75 ms
    {128, 64, 256, 0, 1},           // 12: 1.82 ms
    {128, 32, 256, 0, 0, 2},        // 13: 1.45 ms (one barrier per block saves nothing)
    {64, 32, 128, 0, 0, 2},         // 14: 2.76 ms
    {128, 16, 256, 0, 0, 2},        // 15: 1.60 ms
    {128, 16, 256, 0, 0, 1},        // 16: 1.58 ms
    {128, 32, 256, 0, 0, 1, 1},     // 17: 1.46 ms
    {128, 64, 256, 0, 0, 1, 1},     // 18: 1.39 ms
    {64, 32, 128, 0, 0, 1, 1},      // 19: 1.78 ms
    {64, 64, 128, 0, 0, 1, 1},      // 20: 3.59 ms
    {128, 32, 256, 0, 0, 1, 1, 1},  // 21: 1.27 ms
    {128, 64, 256, 0, 0, 1, 1, 1},  // 22: 1.20 ms (the pre-pass 70 µs of it), the fastest: the default
    {64, 32, 128, 0, 0, 1, 1, 1},   // 23: 1.37 ms
    {64, 64, 128, 0, 0, 1, 1, 1},   // 24: 1.77 ms
    // Through tensor layouts (2026-11-27), the pre-pass included; none reaches path 22:
    {128, 64, 256, 0, 0, 1, 0, 1, 1, 1},  // 25: 4.19 ms
    {128, 64, 256, 0, 0, 1, 0, 1, 1, 2},  // 26: 3.96 ms
    {128, 64, 256, 0, 0, 1, 0, 1, 1, 4},  // 27: 3.12 ms
    {128, 64, 256, 0, 0, 1, 0, 1, 1, 8},  // 28: 3.29 ms
    {128, 32, 256, 0, 0, 1, 0, 1, 1, 4},  // 29: 3.55 ms
    {128, 32, 256, 0, 0, 1, 0, 1, 1, 8},  // 30: 3.48 ms
    {64, 64, 128, 0, 0, 1, 0, 1, 1, 4},   // 31: 1.87 ms, the fastest of them
    {128, 64, 256, 0, 0, 1, 0, 0, 1, 4},  // 32: 3.58 ms (K and V as f32, no pre-pass)
    {64, 32, 128, 0, 0, 1, 0, 1, 1, 8},   // 33: 2.24 ms
    {64, 64, 128, 0, 0, 1, 0, 1, 1, 8},   // 34: 1.93 ms
    {64, 64, 256, 0, 0, 1, 0, 1, 1, 4},   // 35: 2.18 ms
    {64, 32, 256, 0, 0, 1, 0, 1, 1, 8},   // 36: 3.34 ms
    {32, 64, 128, 0, 0, 1, 0, 1, 1, 4},   // 37: 2.31 ms
    {64, 64, 128, 0, 0, 1, 0, 1, 1, 16},  // 38: 2.65 ms
    {64, 32, 128, 0, 0, 1, 0, 1, 1, 16},  // 39: 2.37 ms
    {32, 64, 64, 0, 0, 1, 0, 1, 1, 4},    // 40: 2.98 ms
};
inline constexpr std::int64_t kLastFusedPath = std::size(kFusedWorkgroupPaths);
inline VulkanPlan fused_matrix2_plan(const FusedShape& s, bool causal, std::int64_t path,
                                     const DeviceLimits& l, std::vector<std::uint32_t> push) {
  auto u32 = [](std::int64_t v) { return std::uint32_t(v); };
  const FusedWorkgroupPath w = kFusedWorkgroupPaths[path - 1];
  if (w.per_subgroup && l.subgroup_size != 32)
    throw Error("attention_fused: path=" + std::to_string(path) + " needs 32-lane subgroups (16 rows each)");
  if (!w.per_subgroup && l.cooperative_matrix_workgroup && w.wg > l.matrix_workgroup_max_invocations)
    throw Error("attention_fused: path=" + std::to_string(path) + " needs " + std::to_string(w.wg) +
                " invocations, over the device's " + std::to_string(l.matrix_workgroup_max_invocations) +
                " for workgroup-scope matrices");
  // Q's rows, or the buffers of a block of K and one of V, as padded f16 rows (16 bytes per 8
  // halves, plus one); the tensor-layout shader stages nothing of its own.
  const std::int64_t shared =
      w.tensor ? 0 : 16 * (s.hd / 8 + 1) * std::max<std::int64_t>(w.rows, 2 * w.kb * w.buffers);
  if (shared > std::int64_t(l.max_shared_memory_bytes))
    throw Error("attention_fused: path=" + std::to_string(path) + " needs " + std::to_string(shared) +
                " bytes of shared memory");
  const std::array<std::uint32_t, 3> groups{u32((s.seq + w.rows - 1) / w.rows), u32(s.heads), 1};
  if (!w.per_subgroup && !w.tensor)
    return {{{"attention/attention_fused_workgroup",
              {"qkv", "attn"},
              {w.wg, u32(s.hd), causal ? 1u : 0u, w.rows, w.kb, w.lazy, w.packed, w.buffers},
              std::move(push),
              groups,
              "fused"}}};
  VulkanPlan plan;
  if (w.f16kv) {
    constexpr std::uint32_t kWg = 256;
    const std::int64_t units = s.seq * s.d / 4;  // 8 halves of K or V each
    const std::int64_t workgroups = (units + kWg - 1) / kWg, x = std::min<std::int64_t>(workgroups, 65535);
    plan.dispatches.push_back({"attention/attention_kv_f16",
                               {"qkv", "kv16"},
                               {kWg},
                               {u32(s.seq), u32(s.d)},
                               {u32(x), u32((workgroups + x - 1) / x), 1},
                               "kv_f16"});
  }
  if (w.tensor) {
    // Layouts that check their bounds only where a block of rows or keys passes seq.
    const std::uint32_t clamp = s.seq % w.rows != 0 || s.seq % w.kb != 0 ? 1 : 0;
    plan.dispatches.push_back({"attention/attention_fused_tensor",
                               {"qkv", "attn", "kv16"},
                               {w.wg, u32(s.hd), causal ? 1u : 0u, w.rows, w.kb, u32(s.seq), u32(s.d), clamp,
                                w.f16kv ? 0u : 1u, w.unroll},
                               std::move(push),
                               groups,
                               "fused"});
    return plan;
  }
  plan.dispatches.push_back({"attention/attention_fused_rows",
                             {"qkv", "attn", "kv16"},
                             {w.wg, u32(s.hd), causal ? 1u : 0u, w.kb, w.f16kv},
                             std::move(push),
                             groups,
                             "fused"});
  return plan;
}

}  // namespace perfgate::kernels
