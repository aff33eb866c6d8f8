#version 450
#extension GL_EXT_bfloat16 : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
// Whether a glslc knows what perfgate's bf16 shaders enable: a workgroup-scope bfloat16 matrix
// loaded through a tensor layout (PerfgateShaderCompiler.cmake and ci/install-shader-compiler.sh
// compile it with --target-env=vulkan1.3).
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { bfloat16_t data[]; };
void main() {
  tensorLayoutNV<2> t = setTensorLayoutDimensionNV(createTensorLayoutNV(2), 64, 64);
  coopmat<bfloat16_t, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseA> m;
  coopMatLoadTensorNV(m, data, 0, t);
}
