#version 450
// attention_fused's pre-pass for the paths that read K and V as f16 (kFusedWorkgroupPaths'
// f16kv): every token's K and V, columns d to 3d of the f32 qkv [seq, 3d], rounded to f16 into
// kv [seq, 2d], 8 halves per invocation, so that the fused pass loads half the bytes and
// converts nothing. The grid may span y where x's 65535 workgroups do not reach.
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Shape { uint seq, d; };
layout(std430, binding = 0) readonly buffer Qkv { vec4 qkv[]; };
layout(std430, binding = 1) writeonly buffer Kv { uvec4 kv[]; };

void main() {
  const uint per_token = d / 4;  // 2d halves, 8 to a uvec4
  const uint u = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (u >= seq * per_token) return;
  const uint at = u / per_token * (3 * d / 4) + d / 4 + 2 * (u % per_token);
  const vec4 lo = qkv[at], hi = qkv[at + 1];
  kv[u] = uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
}
