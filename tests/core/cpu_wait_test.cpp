// The time this process's threads waited for a core, read from the system.
#include "core/cpu_wait.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace perfgate {
namespace {

// Never decreasing while threads live; where the system says nothing, nullopt. (How much a
// busy machine makes them wait is not asserted: a unit test never asserts a timing.)
TEST(CoreCpuWait, GrowsOrStaysAndIsNeverNegative) {
  const std::optional<double> before = cpu_wait_ns();
  if (!before) GTEST_SKIP() << "no /proc/self/task/*/schedstat here";
  EXPECT_GE(*before, 0);
  std::vector<std::thread> busy;
  for (unsigned i = 0; i < 2 * std::max(1u, std::thread::hardware_concurrency()); ++i)
    busy.emplace_back([] {
      const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
      while (std::chrono::steady_clock::now() < end) {
      }
    });
  const std::optional<double> during = cpu_wait_ns();
  for (auto& t : busy) t.join();
  ASSERT_TRUE(during);
  EXPECT_GE(*during, *before);
}

}  // namespace
}  // namespace perfgate
