#version 450
// vec4 shared-memory reads and 16-byte global loads: register blocks whose sides are multiples
// of 4, rows and batches aligned to 4 floats (see matmul.glsl).
#extension GL_GOOGLE_include_directive : require
#define VEC4 1
#include "matmul.glsl"
