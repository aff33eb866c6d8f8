#pragma once
// How a workgroup of the cooperative-matrix shaders splits its output tile: its subgroups form a
// subgroups_m x subgroups_n grid, each owning (tile / subgroups_m) x (tile / subgroups_n) of C
// as 16x16 fragments.
#include <cstdint>
#include <optional>

#include "perfgate/error.h"

namespace perfgate::kernels {

constexpr std::int64_t kFragment = 16;       // M = N = K of the f16 fragments
constexpr std::int64_t kTensorBK = 32;       // k per step: two fragments deep (K is a multiple)
constexpr std::uint32_t kFallbackTile = 16;  // the shared-memory fallback: 16 x 16 threads

struct TensorTile {
  std::uint32_t wg = 0, tile = 0, subgroups_m = 1, subgroups_n = 1;
};

// Subgroups in a near-square grid, more along m (rows of A are read once per column block).
inline std::optional<TensorTile> tensor_tile_for(std::int64_t tile, std::int64_t wg, std::int64_t subgroup) {
  if (tile <= 0 || wg <= 0 || subgroup <= 0 || wg % subgroup != 0 || tile % kFragment != 0)
    return std::nullopt;
  std::int64_t sm = wg / subgroup, sn = 1;
  while (sm > 2 * sn && sm % 2 == 0) sm /= 2, sn *= 2;
  if (tile % (kFragment * sm) != 0 || tile % (kFragment * sn) != 0) return std::nullopt;
  // At most 8 x 8 accumulator fragments per subgroup (64 x 8 floats a thread on 32 lanes).
  if ((tile / kFragment / sm) * (tile / kFragment / sn) > 64) return std::nullopt;
  return TensorTile{std::uint32_t(wg), std::uint32_t(tile), std::uint32_t(sm), std::uint32_t(sn)};
}

// The staged shaders (matmul_f16_coopmat_staged, matmul_f16_workgroup) copy a tm x bk block of A
// and a bk x tn block of B per step into `stages` shared buffers of 16-byte rows, each padded by
// 16 bytes; the subgroup-scope one's tiles are square (tile x tile).
inline std::int64_t tensor_staged_shared_bytes(std::int64_t tm, std::int64_t tn, std::int64_t bk,
                                               std::int64_t stages) {
  return stages * (tm * (bk / 8 + 1) + bk * (tn / 8 + 1)) * 16;
}
inline std::int64_t tensor_staged_shared_bytes(std::int64_t tile, std::int64_t bk, std::int64_t stages) {
  return tensor_staged_shared_bytes(tile, tile, bk, stages);
}

// Its k-step: the deepest of 64 and kTensorBK dividing k whose buffers fit the shared memory and
// whose blocks take at most 8 16-byte loads per invocation (they stay in registers during the
// multiply-adds; on the H100 tile 128 over 128 invocations took 1.17 ms at 64 deep, 16 loads
// each, and 0.81 ms at 32, 8 loads); 0 when none fits.
inline std::int64_t tensor_staged_bk(std::int64_t tile, std::int64_t wg, std::int64_t k, std::int64_t stages,
                                     std::int64_t max_shared_bytes) {
  for (std::int64_t bk : {std::int64_t(64), kTensorBK}) {
    const std::int64_t loads = (2 * tile * bk / 8 + wg - 1) / wg;
    if (k % bk == 0 && loads <= 8 && tensor_staged_shared_bytes(tile, bk, stages) <= max_shared_bytes)
      return bk;
  }
  return tensor_staged_shared_bytes(tile, kTensorBK, stages) <= max_shared_bytes ? kTensorBK : 0;
}

// Valid on a subgroup of 32 (NVIDIA's); the plan checks the device's own size.
inline bool tensor_tile_valid(std::int64_t tile, std::int64_t wg) {
  return tensor_tile_for(tile, wg, 32).has_value();
}

inline TensorTile tensor_tile(std::int64_t tile, std::int64_t wg, std::uint32_t subgroup_size) {
  auto t = tensor_tile_for(tile, wg, subgroup_size);
  if (!t) throw Error("no subgroup grid for tile " + std::to_string(tile) + " and wg " + std::to_string(wg));
  return *t;
}

}  // namespace perfgate::kernels
