#version 450
// Sums of 4 neighbouring elements through subgroup clustered operations
// (GL_KHR_shader_subgroup_clustered: SPIR-V capability GroupNonUniformClustered), which some
// devices do not offer (llvmpipe in Mesa 22.3 among them): there the case is skipped naming them.
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = subgroupClusteredAdd(x[i], 4);
}
