#pragma once
// The options most commands share, and what they build: the selection of cases, the device,
// the thresholds and the baselines. Built once here and passed down as values.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "judge/thresholds.h"
#include "measure/case_selection.h"
#include "measure/device.h"
#include "store/baseline.h"

namespace perfgate {

struct CommonOptions {
  std::vector<std::string> cases;         // positional case globs or kernel names
  std::string backend;                    // "" = best device here
  std::vector<std::string> kernel_globs;  // --kernel, repeatable: a kernel matching any is selected
  std::string device;
  std::vector<std::string> axes;  // NAME=V1,V2
  std::string json_file;
  std::string baselines_dir;  // defaults from the Context
  std::string thresholds_dir;
  std::string cache_dir;   // "" = $PERFGATE_CACHE_DIR or ~/.cache/perfgate
  std::uint64_t seed = 0;  // 0 = fresh random inputs each run
  bool quiet = false;
  std::string color = "auto";

  Selection selection(std::vector<Backend> backends) const;
  std::filesystem::path cache_path() const;
  std::uint64_t input_seed() const;
  bool use_color() const;
};

// Opens the device of a backend; nullopt with the reason when there is none here.
struct OpenedDevice {
  std::unique_ptr<Device> device;
  std::string missing_reason;
};
OpenedDevice open_backend(Backend backend, const std::string& selector);
// The backend `perfgate run` uses without --backend: a Vulkan GPU, else the CPU.
Backend best_backend(const std::string& selector);

}  // namespace perfgate
