// The C tile (row, column) this workgroup computes when the workgroups walk the tiles in bands of
// `group` tile rows, column by column within a band, rather than row by row (group 0, the grid's
// own order): the workgroups resident at one time then share fewer, more reused A row blocks and
// B column blocks in L2. Included by the tensor-core GEMMs (matmul_workgroup.glsl,
// matmul_tensor_layout.glsl).
// Tile `id` of a grid of `rows` x `cols` tiles in that order (ids row by row).
uvec2 banded_tile_of(uint id, uint rows, uint cols, uint group) {
  if (group == 0) return uvec2(id / cols, id % cols);
  const uint first = id / (group * cols) * group, band_rows = min(rows - first, group);
  const uint at = id % (group * cols);
  return uvec2(first + at % band_rows, at / band_rows);
}

uvec2 banded_tile(uint group) {
  if (group == 0) return uvec2(gl_WorkGroupID.y, gl_WorkGroupID.x);
  const uint cols = gl_NumWorkGroups.x;
  return banded_tile_of(gl_WorkGroupID.y * cols + gl_WorkGroupID.x, gl_NumWorkGroups.y, cols, group);
}
