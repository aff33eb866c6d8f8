#version 450
// Subgroup reductions (see kernels/common/workgroup_reduce.glsl) and the shuffle threshold
// (topk_select.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#define SUBGROUP 1
#include "topk_merge.glsl"
