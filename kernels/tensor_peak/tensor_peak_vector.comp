#version 450
// tensor_peak without cooperative matrices: one thread per element of an output tile, the same
// multiply-adds as the tensor-core shader (16 per step, A's row and B's column in registers),
// so devices without matrix units report what their vector units reach on this work.
layout(local_size_x_id = 0) in;

const uint CHAINS = 8;

layout(push_constant) uniform Push { uint tiles, iters; };
layout(std430, binding = 0) readonly buffer MatA { uint a[]; };
layout(std430, binding = 1) readonly buffer MatB { uint b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

float half_at_a(uint e) { return unpackHalf2x16(a[e >> 1])[e & 1]; }
float half_at_b(uint e) { return unpackHalf2x16(b[e >> 1])[e & 1]; }

void main() {
  const uint g = gl_GlobalInvocationID.x;
  if (g >= tiles * 256) return;
  const uint t = g / 256, r = (g % 256) / 16, col = g % 16;
  float row[16], column[16];
  for (uint k = 0; k < 16; ++k) {
    row[k] = half_at_a((t % CHAINS) * 256 + r * 16 + k);
    column[k] = half_at_b(k * 16 + col);
  }
  float acc = 0;
  for (uint it = 0; it < iters; ++it)
    for (uint k = 0; k < 16; ++k) acc = fma(row[k], column[k], acc);
  c[g] = acc;
}
