// What judging a history costs: 1,000 runs x 100 cases (Google Benchmark). Not a test: it
// asserts nothing about time. Figures and the command are on docs/performance.md.
//
//   build/tests/perfgate_bench --benchmark_filter=History --benchmark_min_time=1
#include "judge/history_analysis.h"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "judge/thresholds.h"
#include "store/history.h"

namespace perfgate {
namespace {

constexpr int kRuns = 1000;

// A history file of `runs` runs x `cases` cases, one case in ten 10% slower from the middle on:
// written in the format append_history writes, straight, so setting it up stays quick.
std::filesystem::path write_history(int runs, int cases) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("perfgate-bench-history-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / "cpu-bench-2t.jsonl");
  std::mt19937_64 random(42);
  std::normal_distribution<double> noise(0, 0.01);
  for (int r = 0; r < runs; ++r)
    for (int c = 0; c < cases; ++c) {
      const double level = 1000.0 * (c + 1) * (c % 10 == 0 && r >= runs / 2 ? 1.1 : 1.0);
      const double value = level * std::exp(noise(random));
      char started[32];
      std::snprintf(started, sizeof started, "2026-%02d-%02dT%02d:%02d:00Z", 1 + r / 600, 1 + r / 24 % 25,
                    r % 24, c % 60);
      out << nlohmann::json{{"run_id", "run-" + std::to_string(r)},
                            {"started_at", started},
                            {"commit", std::to_string(r) + "abcdef"},
                            {"branch", "main"},
                            {"case", "kernel" + std::to_string(c) + "/cpu/n=1048576"},
                            {"verdict", "pass"},
                            {"medians", {{"latency_ns", value}, {"relative_latency", value / 1000}}},
                            {"spreads", {{"latency_ns", value / 100}, {"relative_latency", value / 1e5}}},
                            {"device_uuid", ""},
                            {"perfgate_version", "bench"},
                            {"source_hash", "sha256:k" + std::to_string(c)},
                            {"driver", ""}}
                 .dump()
          << "\n";
    }
  return dir;
}

ThresholdSet bench_thresholds() {
  return ThresholdSet::from_yaml_text("defaults:\n  history: {min_segment: 5}\n", "bench.yaml");
}

// Change points and drift of every case, from points already in memory.
void HistoryAnalyse(benchmark::State& state) {
  const int cases = static_cast<int>(state.range(0));
  const auto dir = write_history(kRuns, cases);
  const auto points = read_all_history(dir);
  const ThresholdSet thresholds = bench_thresholds();
  for (auto _ : state) benchmark::DoNotOptimize(analyse_history(points, thresholds, nullptr, {}));
  state.counters["points"] = static_cast<double>(points.size());
  std::filesystem::remove_all(dir);
}
BENCHMARK(HistoryAnalyse)->Arg(100)->Unit(benchmark::kMillisecond);

// What `perfgate history --changes` does: read the JSON Lines file, then analyse.
void HistoryReadAndAnalyse(benchmark::State& state) {
  const int cases = static_cast<int>(state.range(0));
  const auto dir = write_history(kRuns, cases);
  const ThresholdSet thresholds = bench_thresholds();
  for (auto _ : state)
    benchmark::DoNotOptimize(analyse_history(read_all_history(dir), thresholds, nullptr, {}));
  state.counters["file_MB"] =
      static_cast<double>(std::filesystem::file_size(dir / "cpu-bench-2t.jsonl")) / 1e6;
  std::filesystem::remove_all(dir);
}
BENCHMARK(HistoryReadAndAnalyse)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace perfgate
