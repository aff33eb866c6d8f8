#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : enable
// tensor_peak_coopmat.comp through GL_KHR_cooperative_matrix (VK_KHR_cooperative_matrix, a
// Vulkan 1.3 shader): the same CHAINS independent 16x16x16 chains per subgroup, on the
// extension NVIDIA's driver maps to its newer matrix path (634 against 585 TFLOP/s on the H100).
layout(local_size_x_id = 0) in;

const uint CHAINS = 8;  // kChains of tensor_peak.cpp

layout(push_constant) uniform Push { uint tiles, iters; };
layout(std430, binding = 0) readonly buffer MatA { float16_t a[]; };
layout(std430, binding = 1) readonly buffer MatB { float16_t b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

void main() {
  const uint first = (gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID) * CHAINS;
  if (first >= tiles) return;  // whole subgroups: tiles is a multiple of CHAINS
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> fa[CHAINS];
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> fb;
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc[CHAINS];
  coopMatLoad(fb, b, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
  [[unroll]] for (uint j = 0; j < CHAINS; ++j) {
    coopMatLoad(fa[j], a, j * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
    acc[j] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  }
  for (uint it = 0; it < iters; ++it) {
    [[unroll]] for (uint j = 0; j < CHAINS; ++j) acc[j] = coopMatMulAdd(fa[j], fb, acc[j]);
  }
  [[unroll]] for (uint j = 0; j < CHAINS; ++j)
    coopMatStore(acc[j], c, (first + j) * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
}
