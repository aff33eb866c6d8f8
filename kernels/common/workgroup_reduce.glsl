// Workgroup-wide sum and max, included first by the row kernels (softmax, rmsnorm, layernorm,
// the matrix-vector products). With SUBGROUP defined (the device has subgroup arithmetic):
// subgroupAdd/subgroupMax within each subgroup, then across the subgroups through shared
// memory. Without: a shared-memory tree. The two are separate SPIR-V modules, since a module
// that merely declares the subgroup capability is invalid on a device without it. The
// workgroup size (specialization constant 0) must be a power of two.
#ifdef SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

layout(local_size_x_id = 0) in;

shared float reduce_scratch[gl_WorkGroupSize.x];

#ifdef SUBGROUP
#define WORKGROUP_REDUCE(name, subgroup_op, combine, identity)         \
  float name(float v) {                                                 \
    v = subgroup_op(v);                                                 \
    if (subgroupElect()) reduce_scratch[gl_SubgroupID] = v;             \
    barrier();                                                          \
    float total = identity;                                             \
    for (uint i = 0; i < gl_NumSubgroups; ++i)                          \
      total = combine(total, reduce_scratch[i]);                        \
    barrier();                                                          \
    return total;                                                       \
  }
#else
#define WORKGROUP_REDUCE(name, subgroup_op, combine, identity)         \
  float name(float v) {                                                 \
    const uint lid = gl_LocalInvocationIndex;                           \
    reduce_scratch[lid] = v;                                            \
    barrier();                                                          \
    for (uint half_size = gl_WorkGroupSize.x / 2; half_size > 0; half_size /= 2) { \
      if (lid < half_size)                                              \
        reduce_scratch[lid] = combine(reduce_scratch[lid], reduce_scratch[lid + half_size]); \
      barrier();                                                        \
    }                                                                   \
    const float total = reduce_scratch[0];                              \
    barrier();                                                          \
    return total;                                                       \
  }
#endif

float reduce_add(float a, float b) { return a + b; }
WORKGROUP_REDUCE(workgroup_sum, subgroupAdd, reduce_add, 0.0)
WORKGROUP_REDUCE(workgroup_max, subgroupMax, max, -uintBitsToFloat(0x7f800000u))
