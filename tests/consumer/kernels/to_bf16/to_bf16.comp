#version 450
// f32 to bfloat16, rounded to nearest even: the upper 16 bits of the rounded f32, stored through
// 16-bit storage (GLSL has no bf16 type in glslc 2022; the bits are a uint16_t).
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { uint16_t y[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint bits = floatBitsToUint(x[i]);
  y[i] = uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}
