#pragma once
// `--events FILE.jsonl`: one JSON line per dispatch of a case's plan and one per completed
// case, appended as each case finishes, for notebooks and dashboards that follow a run.
#include <filesystem>
#include <fstream>

#include "perfgate/kernel.h"
#include "perfgate/result.h"

namespace perfgate {

class EventStream {
 public:
  // Appends to `file` (created if missing), so the checks of one ctest run share a stream.
  explicit EventStream(const std::filesystem::path& file);
  // `limits` are the device's, for the geometry of the Vulkan plan the case ran.
  void write_case(const RunResult& run, const CaseResult& result, const DeviceLimits& limits);

 private:
  std::filesystem::path file_;
  std::ofstream out_;
};

}  // namespace perfgate
