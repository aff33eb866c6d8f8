#version 450
// For devices without subgroup arithmetic: the threshold by ranking in shared memory.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "topk_partial.glsl"
