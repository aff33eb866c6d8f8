// The C tile (row, column) this workgroup computes when the workgroups walk the tiles in bands of
// `group` tile rows, column by column within a band, rather than row by row (group 0, the grid's
// own order): the workgroups resident at one time then share fewer, more reused A row blocks and
// B column blocks in L2. Included by the tensor-core GEMMs (matmul_workgroup.glsl,
// matmul_tensor_layout.glsl).
uvec2 banded_tile(uint group) {
  if (group == 0) return uvec2(gl_WorkGroupID.y, gl_WorkGroupID.x);
  const uint cols = gl_NumWorkGroups.x, id = gl_WorkGroupID.y * cols + gl_WorkGroupID.x;
  const uint first = id / (group * cols) * group, rows = min(gl_NumWorkGroups.y - first, group);
  const uint at = id % (group * cols);
  return uvec2(first + at % rows, at / rows);
}
