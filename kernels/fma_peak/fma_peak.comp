#version 450
#extension GL_EXT_control_flow_attributes : enable
// fma_peak: float32 FMA throughput. Element i runs CHAINS independent chains
// v = fma(v, a, b) for `iters` steps in registers, from v = x[i] + 0.125 c, and writes their sum
// so nothing is optimised away. a, b and iters are push constants, so the compiler can fold
// nothing; the step loop is unrolled by UNROLL so loop overhead stays under 1% of the issue slots.
layout(local_size_x_id = 0) in;

const int CHAINS = 8;    // kChains of fma_peak.cpp
const uint UNROLL = 16;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Push {
  uint n;
  uint iters;
  float a;
  float b;
};

void main() {
  const uint threads = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += threads) {
    float v[CHAINS];
    [[unroll]] for (int c = 0; c < CHAINS; ++c) v[c] = x[i] + 0.125 * float(c);
    uint k = 0;
    for (; k + UNROLL <= iters; k += UNROLL) {
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
        [[unroll]] for (int c = 0; c < CHAINS; ++c) v[c] = fma(v[c], a, b);
      }
    }
    for (; k < iters; ++k) {
      [[unroll]] for (int c = 0; c < CHAINS; ++c) v[c] = fma(v[c], a, b);
    }
    float sum = 0;
    [[unroll]] for (int c = 0; c < CHAINS; ++c) sum += v[c];
    y[i] = sum;
  }
}
