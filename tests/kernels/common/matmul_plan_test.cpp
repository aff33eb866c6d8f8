#include "kernels/common/matmul_plan.h"

#include <gtest/gtest.h>

namespace perfgate::kernels {
namespace {

DeviceLimits gpu() {
  DeviceLimits l;
  l.max_workgroup_invocations = 1024;
  l.max_shared_memory_bytes = 48 * 1024;
  return l;
}

GemmShape square(std::int64_t n) {
  GemmShape s;
  s.m = s.n = s.k = s.lda = s.ldb = s.ldc = n;
  return s;
}

TEST(MatmulPlan, RegisterBlockFollowsTileAndWorkgroup) {
  const auto c = matmul_config(128, 256);  // 64 outputs a thread: 8 x 8, read as vec4
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rm, 8u);
  EXPECT_EQ(c->rn, 8u);
  EXPECT_TRUE(c->vec4);
  EXPECT_FALSE(matmul_config(128, 128));  // 128 outputs a thread: would spill
  EXPECT_FALSE(matmul_config(96, 64));    // not a power of two
}

TEST(MatmulPlan, AlignedOperandsTakeTheSixteenByteLoadShader) {
  const auto c = *matmul_config(128, 256);
  EXPECT_EQ(matmul_dispatch(c, square(512), {}, gpu(), {"a", "b", "c"}, "s").shader, "matmul/matmul_vec4");
}

TEST(MatmulPlan, OperandsOffFourFloatsFallBackToScalarLoads) {
  const auto c = *matmul_config(128, 256);
  MatmulOperands o;
  o.b_offset = 2;  // B starts mid-vec4: 16-byte loads would read the wrong floats
  EXPECT_EQ(matmul_dispatch(c, square(512), o, gpu(), {"a", "b", "c"}, "s").shader, "matmul/matmul");
  GemmShape odd = square(512);
  odd.lda = 514;  // rows of A not on 4 floats
  EXPECT_EQ(matmul_dispatch(c, odd, {}, gpu(), {"a", "b", "c"}, "s").shader, "matmul/matmul");
}

TEST(MatmulPlan, RefusesTilesTheDeviceOrTheShapeCannotTake) {
  DeviceLimits small = gpu();
  small.max_shared_memory_bytes = 16 * 1024;  // two 16-deep rows of 132 floats: 16.9 KB
  EXPECT_THROW(matmul_dispatch(*matmul_config(128, 256), square(512), {}, small, {"a", "b", "c"}, "s"),
               Error);
  // m and n not multiples of the tile: the shader has no bounds tests.
  EXPECT_THROW(matmul_dispatch(*matmul_config(128, 256), square(200), {}, gpu(), {"a", "b", "c"}, "s"),
               Error);
}

}  // namespace
}  // namespace perfgate::kernels
