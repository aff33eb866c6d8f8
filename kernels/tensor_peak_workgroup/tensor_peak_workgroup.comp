#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// tensor_peak_workgroup: CHAINS (1, 2 or 4) independent chains C_j = A_j * B + C_j of
// workgroup-scope matrices (TM x TK times TK x TN, f16 -> f32, VK_NV_cooperative_matrix2) per
// workgroup, `iters` steps in registers, each C_j stored once as rows (group * CHAINS + j) * TM
// of c. The chains are written out one by one: glslang 15.1 crashes on arrays of
// workgroup-scope matrices; the chains past CHAINS are specialised away.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint TM = 64;
layout(constant_id = 2) const uint TN = 64;
layout(constant_id = 3) const uint TK = 32;
layout(constant_id = 4) const uint CHAINS = 4;

layout(push_constant) uniform Push { uint groups, iters; };
layout(std430, binding = 0) readonly buffer MatA { float16_t a[]; };  // CHAINS * TM x TK
layout(std430, binding = 1) readonly buffer MatB { float16_t b[]; };  // TK x TN
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };     // groups * CHAINS * TM x TN

#define ACC coopmat<float, gl_ScopeWorkgroup, TM, TN, gl_MatrixUseAccumulator>
#define MAT_A coopmat<float16_t, gl_ScopeWorkgroup, TM, TK, gl_MatrixUseA>

void main() {
  tensorLayoutNV<2> la = setTensorLayoutDimensionNV(createTensorLayoutNV(2), CHAINS * TM, TK);
  tensorLayoutNV<2> lb = setTensorLayoutDimensionNV(createTensorLayoutNV(2), TK, TN);
  tensorLayoutNV<2> lc = setTensorLayoutDimensionNV(createTensorLayoutNV(2), groups * CHAINS * TM, TN);
  coopmat<float16_t, gl_ScopeWorkgroup, TK, TN, gl_MatrixUseB> fb;
  coopMatLoadTensorNV(fb, b, 0, lb);
  MAT_A fa0, fa1, fa2, fa3;
  ACC acc0 = ACC(0.0), acc1 = ACC(0.0), acc2 = ACC(0.0), acc3 = ACC(0.0);
  coopMatLoadTensorNV(fa0, a, 0, sliceTensorLayoutNV(la, 0, TM, 0, TK));
  if (CHAINS > 1) coopMatLoadTensorNV(fa1, a, 0, sliceTensorLayoutNV(la, TM, TM, 0, TK));
  if (CHAINS > 2) {
    coopMatLoadTensorNV(fa2, a, 0, sliceTensorLayoutNV(la, 2 * TM, TM, 0, TK));
    coopMatLoadTensorNV(fa3, a, 0, sliceTensorLayoutNV(la, 3 * TM, TM, 0, TK));
  }
  for (uint it = 0; it < iters; ++it) {
    acc0 = coopMatMulAdd(fa0, fb, acc0);
    if (CHAINS > 1) acc1 = coopMatMulAdd(fa1, fb, acc1);
    if (CHAINS > 2) {
      acc2 = coopMatMulAdd(fa2, fb, acc2);
      acc3 = coopMatMulAdd(fa3, fb, acc3);
    }
  }
  const uint row = gl_WorkGroupID.x * CHAINS * TM;
  coopMatStoreTensorNV(acc0, c, 0, sliceTensorLayoutNV(lc, row, TM, 0, TN));
  if (CHAINS > 1) coopMatStoreTensorNV(acc1, c, 0, sliceTensorLayoutNV(lc, row + TM, TM, 0, TN));
  if (CHAINS > 2) {
    coopMatStoreTensorNV(acc2, c, 0, sliceTensorLayoutNV(lc, row + 2 * TM, TM, 0, TN));
    coopMatStoreTensorNV(acc3, c, 0, sliceTensorLayoutNV(lc, row + 3 * TM, TM, 0, TN));
  }
}
