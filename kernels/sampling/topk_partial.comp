#version 450
// The same code as topk_partial_shared.comp: the partial pass takes no reductions; both
// exist because every row kernel has the two variants (see ../softmax/row_plan.h).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "topk_partial.glsl"
