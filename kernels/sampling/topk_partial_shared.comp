#version 450
// Shared-memory reductions, for devices without subgroup arithmetic.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "topk_partial.glsl"
