#version 450
// Shared-memory reductions, for devices without subgroup arithmetic.
#extension GL_GOOGLE_include_directive : require
#include "softmax.glsl"
