#include "store/baseline_file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "perfgate/error.h"
#include "store/baseline.h"
#include "store_fixture.h"

namespace perfgate {
namespace {

using testing::baseline_case;
using StoreBaselineFile = testing::StoreTest;

KernelBaselines two_cases() {
  return {"cpu-test-2t",
          "copy",
          {baseline_case("copy/cpu/n=1024", 812.5), baseline_case("copy/cpu/n=65536", 41234.75)}};
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// `yaml` is refused with an error naming copy.yaml's line and saying `message`.
void expect_copy_yaml_refused(const std::string& yaml, const std::string& message) {
  try {
    parse_kernel_baselines(yaml, "copy.yaml");
    ADD_FAILURE() << "read, though it should say: " << message;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("copy.yaml:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST_F(StoreBaselineFile, RoundTripKeepsEveryDoubleExactly) {
  const KernelBaselines written = two_cases();
  const KernelBaselines read = parse_kernel_baselines(to_yaml(written), "copy.yaml");
  ASSERT_EQ(read.cases.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const BaselineCase& w = written.cases[i];
    const BaselineCase& r = read.cases[i];
    EXPECT_EQ(r.id, w.id);
    EXPECT_EQ(r.approval.by, w.approval.by);
    EXPECT_EQ(r.approval.reason, w.approval.reason);
    EXPECT_EQ(r.approval.commit, w.approval.commit);
    EXPECT_EQ(r.fingerprint.machine_id, w.fingerprint.machine_id);
    EXPECT_EQ(r.fingerprint.cpu_threads, w.fingerprint.cpu_threads);
    EXPECT_EQ(r.source_hash, w.source_hash);
    ASSERT_EQ(r.runs.size(), w.runs.size());
    for (const auto& [metric, runs] : w.runs) {
      ASSERT_EQ(r.runs.at(metric).size(), runs.size());
      for (std::size_t run = 0; run < runs.size(); ++run) {
        ASSERT_EQ(r.runs.at(metric)[run].size(), runs[run].size());
        for (std::size_t s = 0; s < runs[run].size(); ++s)
          EXPECT_TRUE(same_bits(r.runs.at(metric)[run][s], runs[run][s]))
              << metric << " run " << run << " sample " << s << ": " << r.runs.at(metric)[run][s];
      }
    }
  }
  EXPECT_EQ(to_yaml(read), to_yaml(written));  // stable: reading and writing changes nothing
}

// Whether a case's working set fitted in the cache picks its floor (dram_min_allowed_pct), so the
// file keeps it; files written before it was recorded read as unknown.
TEST_F(StoreBaselineFile, TheWorkingSetIsKeptAndAnOddValueIsAnError) {
  KernelBaselines written = two_cases();
  written.cases[1].fits_in_cache = false;
  written.cases[1].bound = "latency";  // it chooses a floor too (compute_min_allowed_pct)
  const std::string yaml = to_yaml(written);
  const KernelBaselines read = parse_kernel_baselines(yaml, "copy.yaml");
  EXPECT_FALSE(read.cases[0].fits_in_cache.has_value());
  EXPECT_EQ(read.cases[0].bound, "");
  EXPECT_EQ(read.cases[1].bound, "latency");
  ASSERT_TRUE(read.cases[1].fits_in_cache.has_value());
  EXPECT_FALSE(*read.cases[1].fits_in_cache);
  std::string odd = yaml;
  odd.replace(odd.find("fits_in_cache: false"), 20, "fits_in_cache: maybe");
  expect_copy_yaml_refused(odd, "fits_in_cache: expected true or false, got \"maybe\"");
  std::string bogus = yaml;
  bogus.replace(bogus.find("bound: latency"), 14, "bound: network");
  expect_copy_yaml_refused(bogus, "bound: expected memory, compute or latency, got \"network\"");
}

// A case's usual waiting for cores is kept (a check's waiting beyond it widens its allowance);
// files written before it was recorded read as 0, and a negative share is an error.
TEST_F(StoreBaselineFile, TheWaitForCoresIsKept) {
  KernelBaselines written = two_cases();
  written.cases[1].cpu_wait_share = 0.25;
  const std::string yaml = to_yaml(written);
  const KernelBaselines read = parse_kernel_baselines(yaml, "copy.yaml");
  EXPECT_DOUBLE_EQ(read.cases[0].cpu_wait_share, 0);
  EXPECT_DOUBLE_EQ(read.cases[1].cpu_wait_share, 0.25);
  EXPECT_EQ(yaml.find("cpu_wait_share: 0\n"), std::string::npos);  // none recorded, none written
  std::string negative = yaml;
  negative.replace(negative.find("cpu_wait_share: 0.25"), 20, "cpu_wait_share: -0.5");
  expect_copy_yaml_refused(negative, "cpu_wait_share: expected a share of the time, 0 or more");
}

// A calibrated case's reference is kept with its samples (a check is calibrated against it);
// files written before it was recorded read as empty.
TEST_F(StoreBaselineFile, TheCalibrationReferenceIsKept) {
  KernelBaselines written = two_cases();
  written.cases[1].calibration_reference = "calibration_stream/cpu/n=1048576";
  const std::string yaml = to_yaml(written);
  EXPECT_NE(yaml.find("calibration_reference: calibration_stream/cpu/n=1048576"), std::string::npos) << yaml;
  const KernelBaselines read = parse_kernel_baselines(yaml, "copy.yaml");
  EXPECT_TRUE(read.cases[0].calibration_reference.empty());
  EXPECT_EQ(read.cases[1].calibration_reference, "calibration_stream/cpu/n=1048576");
}

TEST_F(StoreBaselineFile, EachRunIsOneLineForReview) {
  const std::string yaml = to_yaml(two_cases());
  std::istringstream lines(yaml);
  int run_lines = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.find("- [") != std::string::npos) {
      ++run_lines;
      EXPECT_NE(line.find(']'), std::string::npos) << line;
    }
  EXPECT_EQ(run_lines, 2 * (3 + 3));  // two cases, three runs of two metrics each
}

TEST_F(StoreBaselineFile, FindReadsTheCaseFromTheStore) {
  const BaselineStore store(dir_);
  write_file_atomically(store.kernel_file("cpu-test-2t", "copy"), to_yaml(two_cases()));
  auto found = store.find("cpu-test-2t", "copy", "copy/cpu/n=65536");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->kernel, "copy");
  EXPECT_FALSE(store.find("cpu-test-2t", "copy", "copy/cpu/n=1"));
  EXPECT_FALSE(store.find("cpu-other", "copy", "copy/cpu/n=65536"));
  EXPECT_EQ(store.all().size(), 2u);
  EXPECT_EQ(store.machines(), std::vector<std::string>{"cpu-test-2t"});
}

TEST_F(StoreBaselineFile, TruncatedFileIsAnErrorNamingTheFile) {
  const BaselineStore store(dir_);
  const std::filesystem::path file = store.kernel_file("cpu-test-2t", "copy");
  const std::string full = to_yaml(two_cases());
  // Cut anywhere: mid-number, mid-line, and right after the first case (still valid YAML).
  const std::size_t second = full.find("copy/cpu/n=65536:");
  ASSERT_NE(second, std::string::npos);
  for (std::size_t cut : {full.size() / 2, full.size() / 3, full.size() - 7, second, std::size_t{10}}) {
    write_file_atomically(file, full.substr(0, cut));
    try {
      store.find("cpu-test-2t", "copy", "copy/cpu/n=1024");
      ADD_FAILURE() << "a file cut at byte " << cut << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    }
  }
}

TEST_F(StoreBaselineFile, ErrorsNameTheLine) {
  std::string yaml = to_yaml(two_cases());
  const std::size_t at = yaml.find("by: alice");
  yaml.replace(at, 9, "by: [alice");
  try {
    parse_kernel_baselines(yaml, "copy.yaml");
    FAIL() << "malformed YAML was accepted";
  } catch (const Error& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("copy.yaml:")) << e.what();
  }
}

std::string error_of(const std::string& yaml) {
  try {
    parse_kernel_baselines(yaml, "copy.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST_F(StoreBaselineFile, UnknownKeysAreErrorsNamingLineAndKey) {
  const std::string yaml = to_yaml(two_cases());
  // A block prepended at the top (a billion-laughs payload, or a typo).
  EXPECT_EQ(error_of("lol: [lol, lol]\n" + yaml),
            "copy.yaml:1: lol: unknown key (expected one of: schema, "
            "machine_id, kernel, case_count, cases)");
  std::string in_case = yaml;
  in_case.insert(in_case.find("    backend: cpu"), "    extra: 1\n");
  EXPECT_NE(error_of(in_case).find("cases.copy/cpu/n=1024.extra: unknown key"), std::string::npos)
      << error_of(in_case);
  std::string in_fingerprint = yaml;
  in_fingerprint.insert(in_fingerprint.find("      cpu_threads:"), "      cpu_thread: 2\n");
  EXPECT_NE(error_of(in_fingerprint).find("fingerprint.cpu_thread: unknown key"), std::string::npos);
  std::string twice = yaml;
  twice.insert(twice.find("    backend: cpu"), "    backend: cpu\n");
  EXPECT_NE(error_of(twice).find("backend: given twice"), std::string::npos) << error_of(twice);
}

TEST_F(StoreBaselineFile, AliasAmplifiedSamplesAreRefused) {
  std::string yaml = to_yaml(two_cases());
  const std::size_t runs = yaml.find("      latency_ns:\n", yaml.find("    runs:"));
  ASSERT_NE(runs, std::string::npos);
  std::string hostile = "      latency_ns:\n        - &r [";
  for (int i = 0; i < 100000; ++i) hostile += (i ? ", " : "") + std::to_string(1000 + i % 7);
  hostile += "]\n";
  for (int i = 0; i < 1000; ++i) hostile += "        - *r\n";
  yaml.replace(runs, yaml.find("\n", yaml.find("\n", runs) + 1) - runs + 1, hostile);
  const std::string message = error_of(yaml);
  EXPECT_NE(message.find("an anchor (&name) is not allowed"), std::string::npos) << message.substr(0, 200);
  EXPECT_TRUE(message.starts_with("copy.yaml:")) << message.substr(0, 200);
}

TEST_F(StoreBaselineFile, SampleAndRunCountsAreCapped) {
  KernelBaselines b = two_cases();
  b.cases[0].runs["latency_ns"] = {std::vector<double>(100001, 5.0)};
  EXPECT_NE(error_of(to_yaml(b))
                .find("cases.copy/cpu/n=1024.runs.latency_ns: 100001 numbers, over the limit of 100000"),
            std::string::npos)
      << error_of(to_yaml(b)).substr(0, 200);
  b.cases[0].runs["latency_ns"] = std::vector<std::vector<double>>(1001, {5.0});
  EXPECT_NE(error_of(to_yaml(b)).find("latency_ns: 1001 runs, over the limit of 1000"), std::string::npos);
}

TEST_F(StoreBaselineFile, UpsertReplacesByIdAndKeepsOrder) {
  KernelBaselines b = two_cases();
  upsert(b, baseline_case("copy/cpu/n=4096", 1, "bob"));
  upsert(b, baseline_case("copy/cpu/n=1024", 2, "carol"));
  ASSERT_EQ(b.cases.size(), 3u);
  EXPECT_EQ(b.cases[0].id, "copy/cpu/n=1024");
  EXPECT_EQ(b.cases[0].approval.by, "carol");
  EXPECT_EQ(b.cases[1].id, "copy/cpu/n=4096");
  EXPECT_EQ(b.cases[2].id, "copy/cpu/n=65536");
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every cut of `full` at a line end (a disk that filled, a copy that stopped) is refused naming
// the file; the whole text reads.
void expect_every_line_end_cut_refused(const std::string& full, const std::string& file) {
  EXPECT_NO_THROW(parse_kernel_baselines(full, file)) << file;
  int cuts = 0, accepted = 0;
  for (std::size_t end = full.find('\n'); end != std::string::npos && end + 1 < full.size();
       end = full.find('\n', end + 1)) {
    ++cuts;
    try {
      parse_kernel_baselines(full.substr(0, end + 1), file);
      ++accepted;
      ADD_FAILURE() << file << " cut after line " << cuts << " was read as valid";
    } catch (const Error& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with(file + ":")) << e.what();
    }
  }
  EXPECT_GT(cuts, 60) << file;
  EXPECT_EQ(accepted, 0) << file << ": " << accepted << " of " << cuts << " cuts read as valid";
}

// Shipped files (schema 1, no run counts) cut anywhere in their last case's runs: a metric left
// fewer runs, the last metrics dropped. matmul_f16 on llvmpipe has a metric with fewer runs
// than the others (cold latency, left out of runs whose time budget ran out).
TEST_F(StoreBaselineFile, ShippedFileCutAtEveryLineEndIsRefused) {
  for (const char* name : {"cpu-amd-epyc-2t/copy.yaml", "llvmpipe/matmul_f16.yaml"}) {
    const std::filesystem::path file = std::filesystem::path(PERFGATE_SOURCE_DIR) / "baselines" / name;
    const std::string full = read_text(file);
    ASSERT_FALSE(full.empty()) << file;
    expect_every_line_end_cut_refused(full, file.string());
  }
}

// The same files as this perfgate writes them (with run counts).
TEST_F(StoreBaselineFile, RewrittenFileCutAtEveryLineEndIsRefused) {
  for (const char* name : {"cpu-amd-epyc-2t/copy.yaml", "llvmpipe/matmul_f16.yaml"}) {
    const std::filesystem::path file = std::filesystem::path(PERFGATE_SOURCE_DIR) / "baselines" / name;
    const std::string rewritten = to_yaml(parse_kernel_baselines(read_text(file), file.string()));
    EXPECT_NE(rewritten.find("run_counts: {"), std::string::npos);
    expect_every_line_end_cut_refused(rewritten, name);
  }
}

TEST_F(StoreBaselineFile, RunCountsMustMatchTheRuns) {
  KernelBaselines b = two_cases();
  b.cases[1].runs["cold_latency_ns"] = {{5.0}};  // fewer runs than latency_ns: fine when recorded
  const std::string yaml = to_yaml(b);
  EXPECT_EQ(parse_kernel_baselines(yaml, "copy.yaml").cases[1].runs.at("cold_latency_ns").size(), 1u);
  std::string edited = yaml;
  const std::size_t count = edited.rfind("cold_latency_ns: 1");
  ASSERT_NE(count, std::string::npos);
  edited.replace(count, 18, "cold_latency_ns: 2");
  EXPECT_NE(error_of(edited).find("cold_latency_ns: 1 runs, but run_counts says 2"), std::string::npos)
      << error_of(edited);
}

}  // namespace
}  // namespace perfgate
