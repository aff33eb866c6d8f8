#version 450
// matmul_f16 without cooperative matrices (llvmpipe, GPUs without tensor cores): 16 x 16 threads
// per 16 x 16 tile of C, A and B staged through shared memory 16 deep, halves unpacked from
// 32-bit words (no 16-bit storage needed), float32 accumulation. Correctness first: it ignores
// the tile and wg axes of the tensor-core shader.
layout(local_size_x_id = 0) in;  // 256

layout(push_constant) uniform Shape { uint M, N, K; };
layout(std430, binding = 0) readonly buffer MatA { uint a[]; };
layout(std430, binding = 1) readonly buffer MatB { uint b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

shared float As[16][17];
shared float Bs[16][17];

float half_of_a(uint e) { return unpackHalf2x16(a[e >> 1])[e & 1]; }
float half_of_b(uint e) { return unpackHalf2x16(b[e >> 1])[e & 1]; }

void main() {
  const uint tx = gl_LocalInvocationID.x % 16, ty = gl_LocalInvocationID.x / 16;
  const uint row = gl_WorkGroupID.y * 16 + ty, col = gl_WorkGroupID.x * 16 + tx;
  float acc = 0;
  for (uint k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = row < M && k0 + tx < K ? half_of_a(row * K + k0 + tx) : 0.0;
    Bs[ty][tx] = k0 + ty < K && col < N ? half_of_b((k0 + ty) * N + col) : 0.0;
    barrier();
    for (uint kk = 0; kk < 16; ++kk) acc = fma(As[ty][kk], Bs[kk][tx], acc);
    barrier();
  }
  if (row < M && col < N) c[row * N + col] = acc;
}
