#version 450
// Subgroup reductions (see kernels/common/workgroup_reduce.glsl).
#extension GL_GOOGLE_include_directive : require
#define SUBGROUP 1
#include "softmax.glsl"
