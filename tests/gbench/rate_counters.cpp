// Google Benchmark rate counters, as a real libbenchmark run writes them: tests/store's import
// test reads this program's JSON. A copy of 4096 bytes per iteration timed on CPU time, and a
// benchmark that waits (as one timing a GPU does) moving 1e6 bytes per iteration, with and
// without UseRealTime: without it, Google Benchmark divides the bytes by the CPU time.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

namespace {

void BM_memcpy(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  std::vector<char> from(bytes, 'x'), to(bytes);
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), bytes);
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_memcpy)->Arg(4096);

void BM_wait(benchmark::State& state) {
  for (auto _ : state) std::this_thread::sleep_for(std::chrono::microseconds(200));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 1000000);
}
BENCHMARK(BM_wait)->Iterations(20);
BENCHMARK(BM_wait)->Iterations(20)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
