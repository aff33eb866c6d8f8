#version 450
// attention_fused: softmax(Q K^T / sqrt(hd)) V per head in one pass, the flash-attention scheme
// on the vector units: a workgroup owns WG query rows of one head (a thread per row, its q and
// output accumulator in registers), stages KB keys and values at a time in shared memory and
// folds them into a running maximum, sum and weighted sum, so the seq x seq scores never reach
// memory. CAUSAL masks keys after the row. Q, K, V of head h are columns h*HD, d + h*HD and
// 2d + h*HD of qkv [seq, 3d]; the output is attn [seq, d].
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint HD = 64;
layout(constant_id = 2) const uint CAUSAL = 0;
const uint KB = 32;  // keys per shared-memory stage

layout(push_constant) uniform Shape {
  uint seq, d;
  float scale;  // 1 / sqrt(HD)
};
layout(std430, binding = 0) readonly buffer Qkv { float qkv[]; };
layout(std430, binding = 1) writeonly buffer Attn { float attn[]; };

shared float Ks[KB * HD];
shared float Vs[KB * HD];

void main() {
  const uint head = gl_WorkGroupID.y;
  const uint row = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  const bool in_range = row < seq;
  float q[HD], acc[HD];
  for (uint e = 0; e < HD; ++e) {
    q[e] = in_range ? qkv[row * 3 * d + head * HD + e] * scale : 0.0;
    acc[e] = 0.0;
  }
  float running_max = -1.0 / 0.0, running_sum = 0.0;
  // Keys beyond the workgroup's last row are masked for all of its rows under CAUSAL.
  const uint last_row = min(seq, (gl_WorkGroupID.x + 1) * gl_WorkGroupSize.x) - 1;
  const uint keys = CAUSAL != 0 ? last_row + 1 : seq;
  for (uint k0 = 0; k0 < keys; k0 += KB) {
    for (uint v = gl_LocalInvocationID.x; v < KB * HD; v += gl_WorkGroupSize.x) {
      const uint j = k0 + v / HD, e = v % HD;
      Ks[v] = j < seq ? qkv[j * 3 * d + d + head * HD + e] : 0.0;
      Vs[v] = j < seq ? qkv[j * 3 * d + 2 * d + head * HD + e] : 0.0;
    }
    barrier();
    const uint count = min(KB, keys - k0);
    for (uint jj = 0; jj < count; ++jj) {
      if (CAUSAL != 0 && k0 + jj > row) break;
      float s = 0.0;
      for (uint e = 0; e < HD; ++e) s = fma(q[e], Ks[jj * HD + e], s);
      const float new_max = max(running_max, s);
      const float correction = exp(running_max - new_max);
      const float p = exp(s - new_max);
      running_sum = running_sum * correction + p;
      for (uint e = 0; e < HD; ++e) acc[e] = fma(p, Vs[jj * HD + e], acc[e] * correction);
      running_max = new_max;
    }
    barrier();
  }
  if (in_range)
    for (uint e = 0; e < HD; ++e) attn[row * d + head * HD + e] = acc[e] / running_sum;
}
