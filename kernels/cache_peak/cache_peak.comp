#version 450
#extension GL_EXT_control_flow_attributes : enable
// cache_peak: last-level cache read bandwidth. Thread i sums the vec4s (i + r * shift) mod n4
// over `iters` passes r and writes one float. Every address is known up front, so the unrolled
// loads are all in flight together; the shift sends each workgroup to another part of the buffer
// every pass, so the reads come from the shared cache rather than the multiprocessor's L1.
layout(local_size_x_id = 0) in;

const uint UNROLL = 8;

layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Push {
  uint n4;  // vec4s in a
  uint iters;
  uint shift;  // vec4s between a thread's passes
};

void main() {
  const uint threads = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n4; i += threads) {
    vec4 sum[UNROLL];
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) sum[u] = vec4(0);
    const uint step = shift % n4;
    uint at = i;
    uint r = 0;
    for (; r + UNROLL <= iters; r += UNROLL) {
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
        sum[u] += a[at];
        at += step;
        if (at >= n4) at -= n4;
      }
    }
    for (; r < iters; ++r) {
      sum[0] += a[at];
      at += step;
      if (at >= n4) at -= n4;
    }
    vec4 total = vec4(0);
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) total += sum[u];
    y[i] = (total.x + total.y) + (total.z + total.w);
  }
}
