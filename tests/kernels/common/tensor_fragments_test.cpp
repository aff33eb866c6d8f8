#include "kernels/common/tensor_fragments.h"

#include <gtest/gtest.h>

namespace perfgate::kernels {
namespace {

TEST(TensorFragments, SubgroupsFormANearSquareGridThatDividesTheTile) {
  // 256 threads of 32: 8 subgroups as 4 x 2, each 32 x 64 of a 128 tile (2 x 4 fragments).
  const auto t = tensor_tile_for(128, 256, 32);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->subgroups_m, 4u);
  EXPECT_EQ(t->subgroups_n, 2u);
  // 128 threads: 2 x 2 subgroups.
  EXPECT_EQ(tensor_tile_for(64, 128, 32)->subgroups_m, 2u);
  EXPECT_EQ(tensor_tile_for(64, 128, 32)->subgroups_n, 2u);
}

TEST(TensorFragments, RefusesWhatTheShaderCannotTile) {
  EXPECT_FALSE(tensor_tile_for(24, 128, 32));   // not whole fragments
  EXPECT_FALSE(tensor_tile_for(64, 100, 32));   // not whole subgroups
  EXPECT_FALSE(tensor_tile_for(32, 1024, 32));  // 32 subgroups cannot split a 32 tile
  EXPECT_FALSE(tensor_tile_for(256, 64, 32));   // 16 x 8 accumulators per subgroup: too many
  EXPECT_THROW(tensor_tile(24, 128, 32), Error);
}

TEST(TensorFragments, StagedSharedMemoryCountsPaddedRowsPerBuffer) {
  // Tile 128, 32 deep: A 128 rows of 5 16-byte words, B 32 rows of 17.
  EXPECT_EQ(tensor_staged_shared_bytes(128, 32, 1), (128 * 5 + 32 * 17) * 16);
  EXPECT_EQ(tensor_staged_shared_bytes(128, 32, 2), 2 * (128 * 5 + 32 * 17) * 16);
}

TEST(TensorFragments, StagedStepIsTheDeepestThatFitsRegistersAndSharedMemory) {
  constexpr std::int64_t kH100 = 48 * 1024;
  EXPECT_EQ(tensor_staged_bk(128, 256, 4096, 1, kH100), 64);  // 8 loads each, 35 KiB
  EXPECT_EQ(tensor_staged_bk(128, 128, 4096, 1, kH100), 32);  // 64 deep: 16 loads each
  EXPECT_EQ(tensor_staged_bk(128, 256, 4096, 2, kH100), 32);  // two 64-deep buffers: 70 KiB
  EXPECT_EQ(tensor_staged_bk(128, 256, 96, 1, kH100), 32);    // k not a multiple of 64
  EXPECT_EQ(tensor_staged_bk(256, 256, 4096, 2, 16 * 1024), 0);
}

}  // namespace
}  // namespace perfgate::kernels
