#version 450
// calibration_stream: b = a * 0.5 + 1 over n floats, vec4 at a time, workgroups striding.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer B { vec4 b[]; };
layout(push_constant) uniform Push { uint n; };  // floats

void main() {
  const uint n4 = n / 4;
  for (uint i = gl_GlobalInvocationID.x; i < n4; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x)
    b[i] = a[i] * 0.5 + 1.0;
  if (gl_GlobalInvocationID.x == 0)
    for (uint k = n4 * 4; k < n; ++k) b[k / 4][k % 4] = a[k / 4][k % 4] * 0.5 + 1.0;
}
