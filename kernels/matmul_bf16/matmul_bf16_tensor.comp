#version 450
#extension GL_EXT_bfloat16 : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : enable
// matmul_bf16 on tensor cores at workgroup scope, A and B through tensor layouts:
// kernels/common/matmul_tensor_layout.glsl.
#define ELEMENT bfloat16_t
#include "kernels/common/matmul_tensor_layout.glsl"
