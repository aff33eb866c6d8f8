#include "core/cpu_wait.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace perfgate {

std::optional<double> cpu_wait_ns() {
  std::error_code error;
  std::filesystem::directory_iterator tasks("/proc/self/task", error);
  if (error) return std::nullopt;
  double waited_ns = 0;
  bool any = false;
  for (const auto& task : tasks) {
    std::ifstream in(task.path() / "schedstat");
    double running_ns = 0, runnable_ns = 0;
    if (in >> running_ns >> runnable_ns) {
      waited_ns += runnable_ns;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  return waited_ns;
}

CpuWaitMeter::CpuWaitMeter() : start_(std::chrono::steady_clock::now()), start_ns_(cpu_wait_ns()) {}

double CpuWaitMeter::share() const {
  const std::optional<double> now_ns = cpu_wait_ns();
  const double elapsed_ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start_).count();
  if (!start_ns_ || !now_ns || !(elapsed_ns > 0)) return 0;
  return std::max(0.0, *now_ns - *start_ns_) / elapsed_ns;
}

}  // namespace perfgate
