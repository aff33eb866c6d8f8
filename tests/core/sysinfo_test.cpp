// A CPU machine's id (its model's slug, the vector instruction set where it is narrower than
// AVX-512, its thread count) and a host's id (the name the environment gives it, else its
// /etc/machine-id).
#include "core/sysinfo.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace perfgate {
namespace {

TEST(CpuMachineId, NamesTheModelAndThreads) {
  EXPECT_EQ(cpu_machine_id("AMD EPYC 7B13 64-Core Processor", 2, ""), "cpu-amd-epyc-7b13-2t");
  EXPECT_EQ(cpu_machine_id("Intel(R) Xeon(R) CPU @ 2.20GHz", 4, ""), "cpu-intel-xeon-4t");
}

// A VM that calls a Zen 3 and a Zen 4 both "AMD EPYC": the one without AVX-512 names its vector
// set, so the two never share baselines; the AVX-512 one keeps the id its baselines were approved
// under.
TEST(CpuMachineId, AnIsaNarrowerThanAvx512IsNamed) {
  EXPECT_EQ(cpu_machine_id("AMD EPYC", 2, ""), "cpu-amd-epyc-2t");
  EXPECT_EQ(cpu_machine_id("AMD EPYC", 2, "avx2"), "cpu-amd-epyc-avx2-2t");
  EXPECT_NE(cpu_machine_id("AMD EPYC", 2, "avx2"), cpu_machine_id("AMD EPYC", 2, ""));
}

// A VM that calls a Zen 4 and a Zen 5 both "AMD EPYC", AVX-512 both: the design a name without a
// model number hides is named from cpuid's family and model, so the two never share baselines.
TEST(CpuMachineId, TheDesignAGenericNameHidesIsNamed) {
  EXPECT_EQ(cpu_design_tag("AMD EPYC", 26, 2), "f26m2");
  EXPECT_EQ(cpu_design_tag("Intel Xeon Processor (Icelake)", 6, 106), "f6m106");
  EXPECT_EQ(cpu_design_tag("AMD EPYC 7B13 64-Core Processor", 25, 1), "");  // the name says it
  EXPECT_EQ(cpu_design_tag("AMD EPYC", -1, -1), "");                        // no cpuid (not x86)
  EXPECT_EQ(cpu_machine_id("AMD EPYC", 2, "", "f26m2"), "cpu-amd-epyc-f26m2-2t");
  EXPECT_EQ(cpu_machine_id("AMD EPYC", 2, "avx2", "f25m1"), "cpu-amd-epyc-f25m1-avx2-2t");
  EXPECT_NE(cpu_machine_id("AMD EPYC", 2, "", "f25m17"), cpu_machine_id("AMD EPYC", 2, "", "f26m2"));
}

TEST(CpuMachineId, ThisHostsTagIsAKnownOne) {
  const std::string tag = cpu_vector_isa_tag();
  EXPECT_TRUE(tag.empty() || tag == "avx2" || tag == "avx" || tag == "sse") << tag;
  EXPECT_EQ(host_fingerprint().machine_id, cpu_machine_id(cpu_model(), cpu_threads(), tag, cpu_design_tag()));
}

// Clones of one image share /etc/machine-id: the name a CI gives each runner tells them apart,
// and the ids already written for a machine-id or a hostname stay as they were.
TEST(HostId, ANamedHostIsTheNameNotTheCloneItShares) {
  const std::string clone = "3d1219c7c4c5404aaa1f6d2a48adfda4";
  EXPECT_EQ(host_id_of("", clone, "vm"), host_id_of("", clone, "other"));
  EXPECT_NE(host_id_of("runner-1", clone, "vm"), host_id_of("runner-2", clone, "vm"));
  EXPECT_EQ(host_id_of("runner-1", clone, "vm"), host_id_of("runner-1", "", ""));
  EXPECT_NE(host_id_of("runner-1", clone, "vm"), host_id_of("", clone, "vm"));
  EXPECT_NE(host_id_of(clone, "", ""), host_id_of("", clone, ""));
  EXPECT_EQ(host_id_of("", "", "vm"), host_id_of("", "vm", "other"));
  EXPECT_EQ(host_id_of("", "", ""), "");
  const std::string id = host_id_of("", clone, "");
  EXPECT_EQ(id, "a757a8b3a591") << "the id baselines/llvmpipe/ were approved under, from this machine-id";
  EXPECT_EQ(id.size(), 12u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_EQ(id.find(clone.substr(0, 6)), std::string::npos) << "the id itself is never written";
}

TEST(HostId, TheEnvironmentNamesThisHost) {
  const char* before = std::getenv("PERFGATE_HOST_ID");
  const std::string saved = before ? before : "";
  ::setenv("PERFGATE_HOST_ID", "ci-runner-7", 1);
  const std::string named = host_fingerprint().host_id;
  ::unsetenv("PERFGATE_HOST_ID");
  const std::string unnamed = host_fingerprint().host_id;
  if (before) ::setenv("PERFGATE_HOST_ID", saved.c_str(), 1);
  EXPECT_EQ(named, host_id_of("ci-runner-7", "", ""));
  EXPECT_NE(named, unnamed);
}

// A name read from a file by a CI script ends in a newline: the same host as without it.
TEST(HostId, TheNameIsTrimmed) {
  const char* before = std::getenv("PERFGATE_HOST_ID");
  const std::string saved = before ? before : "";
  std::vector<std::string> ids;
  for (const char* name : {"runner-1\n", " runner-1\r\n", "\trunner-1 "}) {
    ::setenv("PERFGATE_HOST_ID", name, 1);
    ids.push_back(host_fingerprint().host_id);
  }
  if (before)
    ::setenv("PERFGATE_HOST_ID", saved.c_str(), 1);
  else
    ::unsetenv("PERFGATE_HOST_ID");
  for (const std::string& id : ids) EXPECT_EQ(id, host_id_of("runner-1", "", ""));
}

}  // namespace
}  // namespace perfgate
