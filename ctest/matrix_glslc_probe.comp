#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Whether a glslc knows the tensor-core extensions perfgate's matrix shaders enable: a
// workgroup-scope matrix loaded through a tensor layout (PerfgateShaderCompiler.cmake and
// ci/install-shader-compiler.sh compile it with --target-env=vulkan1.3).
layout(local_size_x = 128) in;
layout(binding = 0) buffer Data { float16_t data[]; };
void main() {
  tensorLayoutNV<2> t = setTensorLayoutDimensionNV(createTensorLayoutNV(2), 64, 64);
  coopmat<float16_t, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseA> m;
  coopMatLoadTensorNV(m, data, 0, t);
}
