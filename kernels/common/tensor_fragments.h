#pragma once
// How a workgroup of the cooperative-matrix shaders splits its output tile: its subgroups form a
// subgroups_m x subgroups_n grid, each owning (tile / subgroups_m) x (tile / subgroups_n) of C
// as 16x16 fragments.
#include <cstdint>
#include <optional>

#include "perfgate/error.h"

namespace perfgate::kernels {

constexpr std::int64_t kFragment = 16;  // M = N = K of the f16 fragments
constexpr std::int64_t kTensorBK = 32;  // k per step: two fragments deep (K is a multiple)
constexpr std::uint32_t kFallbackTile = 16;  // the shared-memory fallback: 16 x 16 threads

struct TensorTile {
  std::uint32_t wg = 0, tile = 0, subgroups_m = 1, subgroups_n = 1;
};

// Subgroups in a near-square grid, more along m (rows of A are read once per column block).
inline std::optional<TensorTile> tensor_tile_for(std::int64_t tile, std::int64_t wg, std::int64_t subgroup) {
  if (tile <= 0 || wg <= 0 || subgroup <= 0 || wg % subgroup != 0 || tile % kFragment != 0) return std::nullopt;
  std::int64_t sm = wg / subgroup, sn = 1;
  while (sm > 2 * sn && sm % 2 == 0) sm /= 2, sn *= 2;
  if (tile % (kFragment * sm) != 0 || tile % (kFragment * sn) != 0) return std::nullopt;
  // At most 8 x 8 accumulator fragments per subgroup (64 x 8 floats a thread on 32 lanes).
  if ((tile / kFragment / sm) * (tile / kFragment / sn) > 64) return std::nullopt;
  return TensorTile{std::uint32_t(wg), std::uint32_t(tile), std::uint32_t(sm), std::uint32_t(sn)};
}

// Valid on a subgroup of 32 (NVIDIA's); the plan checks the device's own size.
inline bool tensor_tile_valid(std::int64_t tile, std::int64_t wg) { return tensor_tile_for(tile, wg, 32).has_value(); }

inline TensorTile tensor_tile(std::int64_t tile, std::int64_t wg, std::uint32_t subgroup_size) {
  auto t = tensor_tile_for(tile, wg, subgroup_size);
  if (!t) throw Error("no subgroup grid for tile " + std::to_string(tile) + " and wg " + std::to_string(wg));
  return *t;
}

}  // namespace perfgate::kernels
