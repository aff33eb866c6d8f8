#version 450
#extension GL_EXT_control_flow_attributes : enable
// reduce: one pass of a sum. Workgroup g adds its share of x[0..n) (vec4 loads, grid-stride,
// ELEMENTS_PER_THREAD loads in flight per thread) and writes y[g]. The plan runs it twice:
// a -> partials with many workgroups, then partials -> sum with one.
// The workgroup's threads combine through subgroupAdd and one shared slot per subgroup when
// USE_SUBGROUP (the device has subgroup arithmetic in compute), else through a shared-memory
// tree. The subgroup size is never assumed.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ELEMENTS_PER_THREAD = 4;
layout(constant_id = 2) const bool USE_SUBGROUP = false;

layout(set = 0, binding = 0) readonly buffer X { vec4 x[]; };  // padded to whole vec4s
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Push { uint n; };  // floats in x

shared float partial[gl_WorkGroupSize.x];

void main() {
  const uint wg = gl_WorkGroupSize.x;
  const uint lid = gl_LocalInvocationID.x;
  const uint n4 = n / 4;
  const uint tile = wg * ELEMENTS_PER_THREAD;
  const uint stride = gl_NumWorkGroups.x * tile;

  vec4 acc[ELEMENTS_PER_THREAD];
  [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) acc[e] = vec4(0);
  for (uint first = gl_WorkGroupID.x * tile + lid; first < n4; first += stride) {
    [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) {
      const uint i = first + e * wg;
      if (i < n4) acc[e] += x[i];
    }
  }
  vec4 total = vec4(0);
  [[unroll]] for (uint e = 0; e < ELEMENTS_PER_THREAD; ++e) total += acc[e];
  float sum = (total.x + total.y) + (total.z + total.w);
  if (gl_GlobalInvocationID.x == 0 && n % 4 != 0) {
    const vec4 last = x[n4];  // inside the padding: only its first n % 4 floats count
    for (uint k = 0; k < n % 4; ++k) sum += last[k];
  }

  if (USE_SUBGROUP) {
    sum = subgroupAdd(sum);
    if (subgroupElect()) partial[gl_SubgroupID] = sum;
    barrier();
    if (lid == 0) {
      float s = 0;
      for (uint i = 0; i < gl_NumSubgroups; ++i) s += partial[i];
      y[gl_WorkGroupID.x] = s;
    }
  } else {
    partial[lid] = sum;
    barrier();
    // Tree over the next power of two: works for any workgroup size.
    uint width = 1;
    while (width < wg) width *= 2;
    for (uint half_width = width / 2; half_width > 0; half_width /= 2) {
      if (lid < half_width && lid + half_width < wg) partial[lid] += partial[lid + half_width];
      barrier();
    }
    if (lid == 0) y[gl_WorkGroupID.x] = partial[0];
  }
}
