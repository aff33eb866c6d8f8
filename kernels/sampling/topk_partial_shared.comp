#version 450
// For devices without subgroup arithmetic: the same code as topk_partial.comp.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "topk_partial.glsl"
