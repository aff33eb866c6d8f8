#pragma once
// A backend's device as the measuring layer sees it. The CPU device lives in cpu/, the Vulkan
// device in vulkan/; nothing above measure/ knows which one it holds.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/no_device.h"
#include "perfgate/kernel.h"
#include "perfgate/result.h"

namespace perfgate {

// The time of one batch of back-to-back dispatches of a case's plan.
struct BatchTiming {
  int dispatches = 0;
  double device_ns = 0;                 // GPU timestamps (CPU: same as host_ns)
  double host_ns = 0;                   // host wall time from submit to completion
  std::vector<double> stage_device_ns;  // per dispatch of the plan, summed over the batch
};

// One case made ready on a device: device buffers allocated and inputs uploaded.
class PreparedCase {
 public:
  virtual ~PreparedCase() = default;
  // Copies the host buffers' inputs to the device and poisons the outputs there.
  virtual void upload(const Buffers& host) = 0;
  // Runs the plan once and waits.
  virtual void run_once() = 0;
  // Copies the device's output buffers back into the host buffers.
  virtual void download(Buffers& host) = 0;
  // Hot: `dispatches` back to back, timed as one batch. Cold: the last-level cache is flushed
  // before each dispatch and only the dispatches are timed.
  virtual BatchTiming time_batch(int dispatches, bool cold) = 0;
  // Names of the stages (one per dispatch of the plan) for breakdowns.
  virtual std::vector<std::string> stage_names() const = 0;
  // Host time to record one dispatch of the plan into a command buffer, from the latest
  // recording; 0 where nothing is recorded (the CPU).
  virtual double encode_ns_per_dispatch() const { return 0; }
  // Each dispatch's workgroup size as its shader runs it (Vulkan: from the SPIR-V and the
  // specialization); empty where there are no workgroups (the CPU).
  virtual std::vector<std::array<std::uint32_t, 3>> local_sizes() const { return {}; }
  // Each dispatch's compiled shader as its driver describes it (ShaderStatistic); empty where
  // the driver does not say (or the CPU).
  virtual std::vector<std::vector<ShaderStatistic>> shader_statistics() const { return {}; }
};

class Device {
 public:
  virtual ~Device() = default;
  virtual Backend backend() const = 0;
  virtual const Fingerprint& fingerprint() const = 0;
  virtual const DeviceLimits& limits() const = 0;
  virtual std::uint64_t last_level_cache_bytes() const = 0;
  // A real GPU (discrete or integrated), not a CPU implementation of Vulkan such as llvmpipe:
  // `perfgate run` prefers one, else it runs on the CPU backend.
  virtual bool is_gpu() const { return false; }
  // Why a case cannot run here (e.g. a buffer over maxStorageBufferRange), or nullopt.
  virtual std::optional<std::string> unsupported(const KernelDef& kernel, const Params& params,
                                                 const std::vector<BufferSpec>& specs) const = 0;
  virtual std::unique_ptr<PreparedCase> prepare(const KernelDef& kernel, const Params& params,
                                                const Buffers& host) = 0;
};

std::unique_ptr<Device> open_cpu_device();
// `selector` is "" (best discrete GPU), an index, or a substring of the device name.
// Throws NoDevice when Vulkan or a matching device is absent.
std::unique_ptr<Device> open_vulkan_device(const std::string& selector);
std::unique_ptr<Device> open_device(Backend backend, const std::string& selector);

// A Vulkan device the perf tests may be given, e.g. as one `gpus` entry of a CTest resource spec.
struct GpuListing {
  int index = 0;  // what `--device N` selects
  std::string name;
  std::string machine_id;
  std::string device_uuid;
  bool on_cpu = false;  // a CPU implementation (llvmpipe): it shares the host's cores
};
// The usable Vulkan devices of the kind `open_vulkan_device("")` picks from (every discrete GPU,
// else every integrated one, ..., else CPU implementations such as llvmpipe), so a test given
// any of them measures a device whose baselines are the ones a plain run uses. `name_filter`
// keeps those whose name contains it (case-insensitive; "" keeps all). Throws NoDevice when
// Vulkan is absent.
std::vector<GpuListing> list_vulkan_gpus(const std::string& name_filter);

}  // namespace perfgate
