#pragma once
// `--events FILE.jsonl`: one JSON line per dispatch of a case's plan and one per completed
// case, appended as each case finishes, for notebooks and dashboards that follow a run.
#include <filesystem>
#include <string>

#include "perfgate/kernel.h"
#include "perfgate/result.h"

namespace perfgate {

class EventStream {
 public:
  // Appends to `file` (created if missing), so the checks of one ctest run share a stream.
  // Refuses (Error) a symbolic link: appending through it would write into whatever file it
  // points to (--trace and --json replace a link instead; a stream cannot).
  explicit EventStream(const std::filesystem::path& file);
  ~EventStream();
  EventStream(const EventStream&) = delete;
  EventStream& operator=(const EventStream&) = delete;
  // `limits` are the device's, for the geometry of the Vulkan plan the case ran.
  void write_case(const RunResult& run, const CaseResult& result, const DeviceLimits& limits);

 private:
  void append(const std::string& line);

  std::filesystem::path file_;
  int fd_ = -1;
};

}  // namespace perfgate
