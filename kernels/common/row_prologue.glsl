// The opening of the row shaders: which row is the workgroup's (or subgroup's), and the row in
// registers. Their grid is 2-D once there are more than 65535 workgroups (row_dispatch in
// row_plan.h spreads them over y as well), so a workgroup's index is x + y * width, and the
// workgroups past the last row, padding of the grid, return at once.
//
// ROW_PROLOGUE(row, rows): one row per workgroup, `row` its index. The return is uniform per
// workgroup, so workgroup barriers may follow.
// SUBGROUP_ROWS_PROLOGUE(row0, per_subgroup, rows): `per_subgroup` rows per subgroup (the
// matrix-vector products' *_rows shaders), `row0` the subgroup's first. The return is uniform
// per subgroup only: no workgroup barrier may follow, subgroup operations may.
// ROW_ITEMS(type, v, src, base, n, lid, pad): declares `type v[ITEMS]` and loads thread lid's
// share of a workgroup's row into it, every load issued before any is used so that they are in
// flight together: v[i] = src[base + c] for c = lid + i * wg < n, else `pad`. Needs the
// specialization constant ITEMS declared first.
#define GRID_WORKGROUP (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x)

#define ROW_PROLOGUE(row, rows)    \
  const uint row = GRID_WORKGROUP; \
  if (row >= (rows)) return

#define SUBGROUP_ROWS_PROLOGUE(row0, per_subgroup, rows)                               \
  const uint row_group = GRID_WORKGROUP;                                             \
  const uint row0 = (row_group * gl_NumSubgroups + gl_SubgroupID) * (per_subgroup); \
  if (row0 >= (rows)) return

#define ROW_ITEMS(type, v, src, base, n, lid, pad) \
  type v[ITEMS];                                  \
  for (uint i = 0; i < ITEMS; ++i) {              \
    const uint c = (lid) + i * gl_WorkGroupSize.x; \
    v[i] = c < (n) ? src[(base) + c] : (pad);     \
  }
