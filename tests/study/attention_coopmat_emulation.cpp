// A C++ transliteration of kernels/attention/attention_fused_coopmat.comp (commit of this file):
// cooperative-matrix loads, stores and multiply-adds as 16x16 matrices, the subgroups of a
// workgroup in turn between barriers and their lanes phase by phase, f16 roundings as _Float16,
// against a float64 reference. It checks the shader's indexing, masking, rescaling and K/V
// prefetch where no device with cooperative matrices is at hand (llvmpipe has none); it does
// not check synchronisation. Keep it in step with the shader when either changes.
//   g++ -O2 -o /tmp/emu tests/study/attention_coopmat_emulation.cpp && /tmp/emu
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
using uint = unsigned;
struct M {
  float v[16][16];
};
static float h(float x) { return (float)(_Float16)x; }
template <class A>
void load(M& m, const A& arr, uint off, uint stride, bool col) {
  for (uint r = 0; r < 16; ++r)
    for (uint c = 0; c < 16; ++c) m.v[r][c] = arr.at(col ? off + c * stride + r : off + r * stride + c);
}
template <class A>
void store(const M& m, A& arr, uint off, uint stride) {
  for (uint r = 0; r < 16; ++r)
    for (uint c = 0; c < 16; ++c) arr.at(off + r * stride + c) = m.v[r][c];
}
M mma(const M& a, const M& b, const M& c) {
  M o = c;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float s = 0;
      for (int k = 0; k < 16; ++k) s += a.v[i][k] * b.v[k][j];
      o.v[i][j] += s;
    }
  return o;
}
M zero() {
  M m{};
  return m;
}

int run(uint seq, uint d, uint heads, uint CAUSAL, uint ROWS, int seed, bool spike) {
  const uint HD = d / heads, KB = 32, HF = HD / 16, KF = KB / 16, LDH = HD + 8, LDS = KB + 4, LDP = KB + 8,
             QCHUNK = 64;
  const uint V_AT = KB * LDH, P_AT = 2 * KB * LDH;
  const float NEG_INF = -INFINITY, TAU = 8.0f;
  const uint threads = ROWS * 2, warps = ROWS / 16;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> qkv(size_t(seq) * 3 * d);
  for (auto& x : qkv) x = u(g);
  if (spike)  // the last key aligned with every query of head 0: scores jump late, so rows rescale
    for (uint e = 0; e < HD; ++e)
      qkv[size_t(seq - 1) * 3 * d + d + e] = 40.0f * (e % 2 ? 1 : -1), qkv[size_t(seq - 1) * 3 * d + e] = 0;
  if (spike)
    for (uint i = 0; i < seq; ++i)
      for (uint e = 0; e < HD; ++e) qkv[size_t(i) * 3 * d + e] = 0.5f * (e % 2 ? 1 : -1) + 0.1f * u(g);
  std::vector<float> attn(size_t(seq) * d, NAN);
  const float scale = 1 / std::sqrt((float)HD);
  auto vec4at = [&](uint idx4, uint comp) { return qkv[size_t(idx4) * 4 + comp]; };
  uint rescales = 0;
  for (uint head = 0; head < heads; ++head)
    for (uint gx = 0; gx < (seq + ROWS - 1) / ROWS; ++gx) {
      std::vector<float> H(std::max(2 * KB * LDH + ROWS * LDP, QCHUNK * LDH), NAN), S(ROWS * LDS, NAN);
      const uint q0 = gx * ROWS, row_vec4s = 3 * d / 4, hd_vec4s = HD / 4;
      const uint q_at = head * HD / 4, k_at = (d + head * HD) / 4, v_at = (2 * d + head * HD) / 4;
      const float q_scale = scale * 1.4426950408889634f;
      std::vector<std::vector<M>> qf(warps, std::vector<M>(HF)), o(warps, std::vector<M>(HF, zero()));
      std::vector<std::vector<float>> rmax(warps, std::vector<float>(32, NEG_INF)),
          rsum(warps, std::vector<float>(32, 0));
      for (uint c0 = 0; c0 < ROWS; c0 += QCHUNK) {
        for (uint tid = 0; tid < threads; ++tid)
          for (uint v = tid; v < QCHUNK * hd_vec4s; v += threads) {
            const uint rr = v / hd_vec4s, e4 = v % hd_vec4s, qrow = q0 + c0 + rr;
            for (uint c = 0; c < 4; ++c)
              H.at(rr * LDH + 4 * e4 + c) =
                  h(qrow < seq ? vec4at(qrow * row_vec4s + q_at + e4, c) * q_scale : 0);
          }
        for (uint w = 0; w < warps; ++w) {
          const uint wrow = w * 16;
          if (wrow >= c0 && wrow < c0 + QCHUNK)
            for (uint i = 0; i < HF; ++i) load(qf[w][i], H, (wrow - c0) * LDH + 16 * i, LDH, false);
        }
      }
      const uint keys = CAUSAL ? std::min(seq, q0 + ROWS) : seq;
      const uint BLOCK_VEC4S = KB * HD / 4, PER = (BLOCK_VEC4S + ROWS * 2 - 1) / (ROWS * 2);
      std::vector<std::vector<float>> kn(threads, std::vector<float>(PER * 4)), vn = kn;
      auto prefetch = [&](uint base) {
        for (uint tid = 0; tid < threads; ++tid)
          for (uint t = 0; t < PER; ++t) {
            const uint v = tid + t * threads, key = base + v / hd_vec4s, e4 = v % hd_vec4s;
            const bool load = v < BLOCK_VEC4S && key < seq;
            for (uint c = 0; c < 4; ++c) {
              kn[tid][4 * t + c] = load ? vec4at(key * row_vec4s + k_at + e4, c) : 0;
              vn[tid][4 * t + c] = load ? vec4at(key * row_vec4s + v_at + e4, c) : 0;
            }
          }
      };
      prefetch(0);
      for (uint k0 = 0; k0 < keys; k0 += KB) {
        for (uint tid = 0; tid < threads; ++tid)
          for (uint t = 0; t < PER; ++t) {
            const uint v = tid + t * threads, j = v / hd_vec4s, e4 = v % hd_vec4s;
            if (v < BLOCK_VEC4S)
              for (uint c = 0; c < 4; ++c) {
                H.at(j * LDH + 4 * e4 + c) = h(kn[tid][4 * t + c]);
                H.at(V_AT + j * LDH + 4 * e4 + c) = h(vn[tid][4 * t + c]);
              }
          }
        if (k0 + KB < keys) {
          for (auto& x : kn) std::fill(x.begin(), x.end(), NAN);
          prefetch(k0 + KB);
        }
        for (uint w = 0; w < warps; ++w) {
          const uint wrow = w * 16;
          if (CAUSAL && k0 > q0 + wrow + 15) continue;
          std::vector<M> s(KF, zero());
          for (uint i = 0; i < HF; ++i)
            for (uint j = 0; j < KF; ++j) {
              M kt;
              load(kt, H, 16 * j * LDH + 16 * i, LDH, true);
              s[j] = mma(qf[w][i], kt, s[j]);
            }
          for (uint j = 0; j < KF; ++j) store(s[j], S, wrow * LDS + 16 * j, LDS);
          float x[32][16], bmax[32], corr[32];
          bool any = false;
          for (uint lane = 0; lane < 32; ++lane) {
            const uint r = lane / 2, hi = lane % 2, row = q0 + wrow + r;
            bmax[lane] = NEG_INF;
            for (uint t = 0; t < KB / 2; ++t) {
              const uint key = k0 + 2 * t + hi;
              const bool masked = key >= seq || (CAUSAL && key > row);
              x[lane][t] = masked ? NEG_INF : S.at((wrow + r) * LDS + 2 * t + hi);
              bmax[lane] = std::max(bmax[lane], x[lane][t]);
            }
          }
          float shuffled[32];
          for (uint lane = 0; lane < 32; ++lane) shuffled[lane] = bmax[lane ^ 1];
          for (uint lane = 0; lane < 32; ++lane) {
            const uint r = lane / 2, hi = lane % 2;
            const float block_max = std::max(bmax[lane], shuffled[lane]);
            float& running_max = rmax[w][lane];
            const bool first = running_max == NEG_INF;
            const bool rescale = !first && block_max > running_max + TAU;
            const float correction = rescale ? std::exp2(running_max - block_max) : 1.0f;
            if (first || rescale) running_max = block_max;
            const float base = running_max == NEG_INF ? 0.0f : running_max;
            rsum[w][lane] *= correction;
            corr[lane] = correction;
            any |= rescale;
            for (uint t = 0; t < KB / 2; ++t) {
              const float p = h(std::exp2(x[lane][t] - base));
              rsum[w][lane] += p;
              H.at(P_AT + (wrow + r) * LDP + 2 * t + hi) = p;
            }
          }
          if (any) {
            ++rescales;
            for (uint i = 0; i < HF; ++i) {
              store(o[w][i], S, wrow * LDS, LDS);
              for (uint lane = 0; lane < 32; ++lane) {
                const uint r = lane / 2, hi = lane % 2;
                for (uint t = 0; t < 8; ++t) S.at((wrow + r) * LDS + 8 * hi + t) *= corr[lane];
              }
              load(o[w][i], S, wrow * LDS, LDS, false);
            }
          }
          for (uint j = 0; j < KF; ++j) {
            M pf;
            load(pf, H, P_AT + wrow * LDP + 16 * j, LDP, false);
            for (uint i = 0; i < HF; ++i) {
              M vf;
              load(vf, H, V_AT + 16 * j * LDH + 16 * i, LDH, false);
              o[w][i] = mma(pf, vf, o[w][i]);
            }
          }
        }
      }
      for (uint w = 0; w < warps; ++w) {
        const uint wrow = w * 16;
        float tot[32];
        for (uint lane = 0; lane < 32; ++lane) tot[lane] = rsum[w][lane] + rsum[w][lane ^ 1];
        for (uint i = 0; i < HF; ++i) {
          store(o[w][i], S, wrow * LDS, LDS);
          for (uint lane = 0; lane < 32; ++lane) {
            const uint r = lane / 2, hi = lane % 2, row = q0 + wrow + r;
            if (row < seq)
              for (uint t = 0; t < 8; ++t)
                attn.at(size_t(row) * d + head * HD + 16 * i + 8 * hi + t) =
                    S.at((wrow + r) * LDS + 8 * hi + t) * (1.0f / tot[lane]);
          }
        }
      }
    }
  double num = 0, den = 0;
  size_t bad = 0;
  for (uint head = 0; head < heads; ++head)
    for (uint i = 0; i < seq; ++i) {
      const uint nk = CAUSAL ? i + 1 : seq;
      std::vector<double> p(nk);
      double m = -1e300;
      for (uint j = 0; j < nk; ++j) {
        double dot = 0;
        for (uint e = 0; e < HD; ++e)
          dot += double(qkv[size_t(i) * 3 * d + head * HD + e]) * qkv[size_t(j) * 3 * d + d + head * HD + e];
        p[j] = dot / std::sqrt((double)HD);
        m = std::max(m, p[j]);
      }
      double sum = 0;
      for (auto& v : p) sum += v = std::exp(v - m);
      for (uint e = 0; e < HD; ++e) {
        double r = 0;
        for (uint j = 0; j < nk; ++j) r += p[j] / sum * qkv[size_t(j) * 3 * d + 2 * d + head * HD + e];
        const float a = attn[size_t(i) * d + head * HD + e];
        if (!std::isfinite(a)) ++bad;
        num += (a - r) * (a - r);
        den += r * r;
      }
    }
  printf(
      "seq %u d %u heads %u causal %u rows %u spike %d: rel L2 %.3g, non-finite %zu, rescaling warp-blocks "
      "%u\n",
      seq, d, heads, CAUSAL, ROWS, spike, std::sqrt(num / den), bad, rescales);
  return 0;
}
int main() {
  for (uint causal : {0u, 1u}) {
    run(272, 64, 2, causal, 64, 1, false);
    run(48, 256, 2, causal, 64, 2, false);
    run(80, 64, 4, causal, 64, 6, false);
    run(400, 64, 4, causal, 128, 7, false);
    run(256, 128, 1, causal, 128, 3, false);
    run(320, 256, 4, causal, 128, 4, false);
    run(200 - 8, 128, 1, causal, 64, 5, true);
  }
}
