#version 450
// Subgroup reductions (see ../softmax/workgroup_reduce.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#define SUBGROUP 1
#include "topk_merge.glsl"
