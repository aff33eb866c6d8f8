#version 450
// With subgroup arithmetic: the threshold by subgroup shuffles (topk_select.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#define SUBGROUP
#include "topk_partial.glsl"
