#version 450
// vec4 shared-memory reads: register blocks whose sides are multiples of 4 (see matmul.glsl).
#extension GL_GOOGLE_include_directive : require
#define VEC4 1
#include "matmul.glsl"
