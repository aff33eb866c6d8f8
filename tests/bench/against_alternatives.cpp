// perfgate's CPU kernels against what a user would pick instead, in the same run on the same
// machine and with the same threads: matmul against OpenBLAS's cblas_sgemm, copy against memcpy
// (split over the threads), each at the suite's CPU shape. Prints each side's median time and
// rate and the ratio of their speeds. Not a test: it asserts nothing about time, only that both
// sides computed the same thing. Figures and the command are on docs/performance.md.
//
//   build/tests/perfgate_alternatives [--rounds N] [--threads N]
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "perfgate/registry.h"

extern "C" void openblas_set_num_threads(int threads);

namespace perfgate {
namespace {

// The kernel's CPU point of the suite: each axis at its largest CPU value (copy's DRAM-sized n).
Params suite_point(const KernelDef& kernel) {
  std::vector<std::pair<std::string, std::int64_t>> values;
  for (const Axis& axis : kernel.axes())
    if (axis.applies_to(Backend::cpu))
      values.emplace_back(axis.name, *std::max_element(axis.values.begin(), axis.values.end()));
  return Params(values);
}

double seconds_of(const std::function<void()>& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Both sides in alternating blocks of `reps` calls, `rounds` times, after one call each to warm
// up. Between blocks a pause of 0.3 s, so that neither side's threads still spin waiting for
// work while the other runs (libgomp's spin, OpenBLAS's thread timeout of 2^28 cycles).
struct Pair {
  std::vector<double> perfgate_s, other_s;
};
Pair time_pair(const std::function<void()>& ours, const std::function<void()>& theirs, int rounds, int reps) {
  Pair pair;
  ours();
  theirs();
  for (int r = 0; r < rounds; ++r)
    for (int side = 0; side < 2; ++side) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      for (int i = 0; i < reps; ++i)
        (side == 0 ? pair.perfgate_s : pair.other_s).push_back(seconds_of(side == 0 ? ours : theirs));
    }
  return pair;
}

void print_row(const std::string& what, const std::string& other, const Pair& pair, double work,
               const char* unit) {
  const double ours = median(pair.perfgate_s), theirs = median(pair.other_s);
  std::printf("%-34s %10.3f ms %9.1f %s   %-12s %10.3f ms %9.1f %s   %.2fx\n", what.c_str(), ours * 1e3,
              work / ours / 1e9, unit, other.c_str(), theirs * 1e3, work / theirs / 1e9, unit, theirs / ours);
}

int run(int argc, char** argv) {
  int rounds = 5, threads = omp_get_max_threads();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--rounds" || arg == "--threads") && i + 1 < argc) {
      const int value = std::atoi(argv[++i]);
      if (value < 1) {
        std::fprintf(stderr, "perfgate_alternatives: %s must be a positive integer, got '%s'\n", arg.c_str(),
                     argv[i]);
        return 2;
      }
      (arg == "--rounds" ? rounds : threads) = value;
    } else {
      std::printf(
          "Usage: %s [--rounds N] [--threads N]\n"
          "perfgate's matmul against OpenBLAS cblas_sgemm and its copy against memcpy, at the suite's\n"
          "CPU shapes, in alternating blocks; both sides on N threads (default: OpenMP's, i.e.\n"
          "OMP_NUM_THREADS or every core). Ratio: perfgate's speed over the other's, i.e. the other's\n"
          "median time / perfgate's (above 1x: perfgate is faster).\n",
          argv[0]);
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  omp_set_num_threads(threads);
  openblas_set_num_threads(threads);
  std::printf("threads: %d for perfgate (OpenMP) and for OpenBLAS and memcpy; %d rounds\n\n", threads,
              rounds);
  std::printf("%-34s %13s %14s   %-12s %13s %14s   %s\n", "perfgate case", "median", "rate", "other",
              "median", "rate", "perfgate's speed / other's");

  // matmul against sgemm: C = A B, row-major, the same A and B.
  const KernelDef& matmul = *find_kernel("matmul");
  const Params mp = suite_point(matmul);
  Buffers mb(matmul.buffer_specs(mp));
  Rng rng(1);
  matmul.fill_inputs(mp, mb, rng);
  const int m = int(mp["m"]), n = int(mp["n"]), k = int(mp["k"]);
  std::vector<float> blas_c(std::size_t(m) * std::size_t(n));
  const Pair gemm = time_pair([&] { matmul.run_cpu(mp, mb); },
                              [&] {
                                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                                            mb.get<float>("a").data(), k, mb.get<float>("b").data(), n, 0.0f,
                                            blas_c.data(), n);
                              },
                              rounds, 3);
  const CheckResult gemm_check = matmul.verify(mp, mb);
  double gemm_differs = 0;
  const auto c = mb.get<float>("c");
  for (std::size_t i = 0; i < blas_c.size(); ++i)
    gemm_differs =
        std::max(gemm_differs, double(std::abs(c[i] - blas_c[i])) / (1 + std::abs(double(blas_c[i]))));
  print_row("matmul/cpu/" + mp.id(), "cblas_sgemm", gemm, 2.0 * m * n * k, "GFLOP/s");

  // copy against memcpy, each thread a contiguous share of the bytes.
  const KernelDef& copy = *find_kernel("copy");
  const Params cp = suite_point(copy);
  Buffers cb(copy.buffer_specs(cp));
  copy.fill_inputs(cp, cb, rng);
  std::vector<float> copied(cb.get<float>("a").size());
  const std::size_t count = copied.size();
  const float* src = cb.get<float>("a").data();
  const Pair copies =
      time_pair([&] { copy.run_cpu(cp, cb); },
                [&] {
#pragma omp parallel for schedule(static)
                  for (int t = 0; t < threads; ++t) {
                    const std::size_t begin = count * std::size_t(t) / std::size_t(threads);
                    const std::size_t end = count * std::size_t(t + 1) / std::size_t(threads);
                    std::memcpy(copied.data() + begin, src + begin, (end - begin) * sizeof(float));
                  }
                },
                rounds, 3);
  const CheckResult copy_check = copy.verify(cp, cb);
  const bool copies_agree = std::memcmp(copied.data(), cb.get<float>("b").data(), count * sizeof(float)) == 0;
  print_row("copy/cpu/" + cp.id(), "memcpy", copies, 2.0 * double(count * sizeof(float)), "GB/s   ");

  std::printf("\nmatmul: %s; largest difference from sgemm %.2g (relative)\ncopy: %s; %s\n",
              gemm_check.ok ? "matches its reference" : gemm_check.detail.c_str(), gemm_differs,
              copy_check.ok ? "matches its reference" : copy_check.detail.c_str(),
              copies_agree ? "the same bytes as memcpy" : "DIFFERS from memcpy");
  return gemm_check.ok && copy_check.ok && copies_agree && gemm_differs < 1e-4 ? 0 : 1;
}

}  // namespace
}  // namespace perfgate

int main(int argc, char** argv) { return perfgate::run(argc, argv); }
