#version 450
// Scalar shared-memory reads: any register block (see matmul.glsl).
#extension GL_GOOGLE_include_directive : require
#include "matmul.glsl"
