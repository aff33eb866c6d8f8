// A CPU machine's id: its model's slug, the vector instruction set where it is narrower than
// AVX-512, its thread count.
#include "core/sysinfo.h"

#include <gtest/gtest.h>

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

TEST(CpuMachineId, ThisHostsTagIsAKnownOne) {
  const std::string tag = cpu_vector_isa_tag();
  EXPECT_TRUE(tag.empty() || tag == "avx2" || tag == "avx" || tag == "sse") << tag;
  EXPECT_EQ(host_fingerprint().machine_id, cpu_machine_id(cpu_model(), cpu_threads(), tag));
}

}  // namespace
}  // namespace perfgate
