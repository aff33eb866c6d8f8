// C[b] = alpha * A[b] * B[b] (or A[b] * B[b]^T) in float32: a T x T output tile per workgroup,
// staged through shared memory BK columns of A and BK rows of B at a time, and an RM x RN
// register block per thread. Each thread issues all its global loads of a step into registers
// before its first shared store (a load-store pair per element would wait out the memory latency
// once per element). Double buffering with the next step's loads in flight during the
// multiply-adds was slower on the H100 (docs/performance.md): its registers cost occupancy.
// Included by matmul.comp (scalar loads and shared reads) and matmul_vec4.comp (VEC4: a thread's
// rows and columns come in groups of 4, read as vec4, and A and B arrive by 16-byte loads, a
// quarter of the load instructions: 3.66 -> 3.32 ms at 4096^3 on the H100).
// Sizes must be multiples of the tile (M, N of T; K of BK): the plan checks, so no bounds tests.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint T = 64;
layout(constant_id = 2) const uint BK = 16;
layout(constant_id = 3) const uint RM = 4;
layout(constant_id = 4) const uint RN = 4;
layout(constant_id = 5) const uint TRANSPOSE_B = 0;

// Offsets and strides in elements; the batch index is gl_WorkGroupID.z.
layout(push_constant) uniform Shape {
  uint M, N, K;
  uint lda, ldb, ldc;
  uint a_offset, a_batch_stride;
  uint b_offset, b_batch_stride;
  uint c_offset, c_batch_stride;
  float alpha;
} s;

#ifdef VEC4
layout(std430, binding = 0) readonly buffer MatA { vec4 a[]; };
layout(std430, binding = 1) readonly buffer MatB { vec4 b[]; };
#else
layout(std430, binding = 0) readonly buffer MatA { float a[]; };
layout(std430, binding = 1) readonly buffer MatB { float b[]; };
#endif
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

const uint WG = gl_WorkGroupSize.x;
const uint TX = T / RN;    // threads along a tile row
const uint TY = T / RM;    // threads along a tile column
const uint LD = T + 4;     // padded shared row: column-wise stores spread over the banks

#ifdef VEC4
shared vec4 As[BK * LD / 4];  // As[kk][row]: A's tile transposed, so rows are contiguous
shared vec4 Bs[BK * LD / 4];  // Bs[kk][col]
#define STORE_A(kk, row, v) As[((kk) * LD + (row)) >> 2][(row) & 3] = (v)
#define STORE_B(kk, col, v) Bs[((kk) * LD + (col)) >> 2][(col) & 3] = (v)
#define ROW(i) ((ty + ((i) >> 2) * TY) * 4 + ((i) & 3))
#define COL(j) ((tx + ((j) >> 2) * TX) * 4 + ((j) & 3))
#else
shared float As[BK * LD];
shared float Bs[BK * LD];
#define STORE_A(kk, row, v) As[(kk) * LD + (row)] = (v)
#define STORE_B(kk, col, v) Bs[(kk) * LD + (col)] = (v)
#define ROW(i) (ty + (i) * TY)
#define COL(j) (tx + (j) * TX)
#endif

#ifdef VEC4
// 16-byte global loads: a step's A and B blocks as vec4s along their contiguous dimension
// (every offset, stride and k0 a multiple of 4: the plan checks).
const uint PER4 = (T * BK / 4 + WG - 1) / WG;
vec4 pa[PER4], pb[PER4];

void load_step(uint a_base, uint b_base, uint bn, uint k0) {
  for (uint i = 0; i < PER4; ++i) {
    const uint e = gl_LocalInvocationID.x + i * WG;
    if ((T * BK / 4) % WG != 0 && e >= T * BK / 4) break;
    pa[i] = a[(a_base + (e / (BK / 4)) * s.lda + k0) / 4 + e % (BK / 4)];
    if (TRANSPOSE_B != 0)
      pb[i] = b[(b_base + (bn + e / (BK / 4)) * s.ldb + k0) / 4 + e % (BK / 4)];
    else
      pb[i] = b[(b_base + (k0 + e / (T / 4)) * s.ldb + bn) / 4 + e % (T / 4)];
  }
}

void store_step() {
  for (uint i = 0; i < PER4; ++i) {
    const uint e = gl_LocalInvocationID.x + i * WG;
    if ((T * BK / 4) % WG != 0 && e >= T * BK / 4) break;
    const uint row = e / (BK / 4), kq = 4 * (e % (BK / 4));
    STORE_A(kq, row, pa[i].x);
    STORE_A(kq + 1, row, pa[i].y);
    STORE_A(kq + 2, row, pa[i].z);
    STORE_A(kq + 3, row, pa[i].w);
    if (TRANSPOSE_B != 0) {
      STORE_B(kq, row, pb[i].x);
      STORE_B(kq + 1, row, pb[i].y);
      STORE_B(kq + 2, row, pb[i].z);
      STORE_B(kq + 3, row, pb[i].w);
    } else {
      Bs[((e / (T / 4)) * LD) / 4 + e % (T / 4)] = pb[i];
    }
  }
}
#else
const uint PER = (T * BK + WG - 1) / WG;  // elements of A (and of B) each thread copies per step
float pa[PER], pb[PER];  // a step's elements of A and B, all loads in flight before the first store

// A tile: consecutive threads read consecutive k of one row (coalesced).
void load_step(uint a_base, uint b_base, uint bn, uint k0) {
  for (uint i = 0; i < PER; ++i) {
    const uint e = gl_LocalInvocationID.x + i * WG;
    if ((T * BK) % WG != 0 && e >= T * BK) break;
    pa[i] = a[a_base + (e / BK) * s.lda + k0 + e % BK];
    if (TRANSPOSE_B != 0)  // B stored N x K: read along k
      pb[i] = b[b_base + (bn + e / BK) * s.ldb + k0 + e % BK];
    else                   // B stored K x N: read along n
      pb[i] = b[b_base + (k0 + e / T) * s.ldb + bn + e % T];
  }
}

void store_step() {
  for (uint i = 0; i < PER; ++i) {
    const uint e = gl_LocalInvocationID.x + i * WG;
    if ((T * BK) % WG != 0 && e >= T * BK) break;
    STORE_A(e % BK, e / BK, pa[i]);
    if (TRANSPOSE_B != 0)
      STORE_B(e % BK, e / BK, pb[i]);
    else
      STORE_B(e / T, e % T, pb[i]);
  }
}

#endif

void main() {
  const uint tid = gl_LocalInvocationID.x;
  const uint tx = tid % TX, ty = tid / TX;
  const uint bm = gl_WorkGroupID.y * T, bn = gl_WorkGroupID.x * T;
  const uint batch = gl_WorkGroupID.z;
  const uint a_base = s.a_offset + batch * s.a_batch_stride + bm * s.lda;
  const uint b_base = s.b_offset + batch * s.b_batch_stride;

  float acc[RM][RN];
  for (uint i = 0; i < RM; ++i)
    for (uint j = 0; j < RN; ++j) acc[i][j] = 0.0;

  for (uint k0 = 0; k0 < s.K; k0 += BK) {
    load_step(a_base, b_base, bn, k0);
    store_step();
    barrier();
    for (uint kk = 0; kk < BK; ++kk) {
      float ar[RM], br[RN];
#ifdef VEC4
      for (uint i = 0; i < RM / 4; ++i) {
        const vec4 v = As[(kk * LD) / 4 + ty + i * TY];
        ar[4 * i] = v.x; ar[4 * i + 1] = v.y; ar[4 * i + 2] = v.z; ar[4 * i + 3] = v.w;
      }
      for (uint j = 0; j < RN / 4; ++j) {
        const vec4 v = Bs[(kk * LD) / 4 + tx + j * TX];
        br[4 * j] = v.x; br[4 * j + 1] = v.y; br[4 * j + 2] = v.z; br[4 * j + 3] = v.w;
      }
#else
      for (uint i = 0; i < RM; ++i) ar[i] = As[kk * LD + ROW(i)];
      for (uint j = 0; j < RN; ++j) br[j] = Bs[kk * LD + COL(j)];
#endif
      for (uint i = 0; i < RM; ++i)
        for (uint j = 0; j < RN; ++j) acc[i][j] = fma(ar[i], br[j], acc[i][j]);
    }
    barrier();
  }

  const uint c_base = s.c_offset + batch * s.c_batch_stride + bm * s.ldc + bn;
  for (uint i = 0; i < RM; ++i)
    for (uint j = 0; j < RN; ++j) c[c_base + ROW(i) * s.ldc + COL(j)] = s.alpha * acc[i][j];
}
