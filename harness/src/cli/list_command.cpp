// perfgate list: kernels, their cases per backend, and the devices found here.
#include <cstdio>
#include <optional>
#include <set>
#include <string>

#include "cli/commands.h"
#include "cli/ctest_resources.h"
#include "cli/options.h"
#include "core/atomic_file.h"
#include "core/sysinfo.h"
#include "perfgate/registry.h"
#include "perfgate/result.h"

namespace perfgate {
namespace {

void print_devices(const std::vector<Backend>& backends, const std::string& selector) {
  std::printf("devices:\n");
  for (Backend b : backends) {
    OpenedDevice opened = open_backend(b, selector);
    if (!opened.device) {
      std::printf("  %-7s none: %s\n", std::string(to_string(b)).c_str(), opened.missing_reason.c_str());
      continue;
    }
    const Fingerprint& f = opened.device->fingerprint();
    std::printf("  %-7s %s  (machine id %s%s%s)\n", std::string(to_string(b)).c_str(), f.device_name.c_str(),
                f.machine_id.c_str(), f.driver_version.empty() ? "" : ", driver ", f.driver_version.c_str());
  }
  // The host every result names: runners cloned from one image all say the same one here unless
  // the environment names each (core/sysinfo.h).
  const HostId host = this_host();
  std::printf("  host    %s  (a digest of %s%s)\n", host.id.empty() ? "unknown" : host.id.c_str(), host.from.c_str(),
              host.from == "PERFGATE_HOST_ID" ? "" : ", which clones of one image share: PERFGATE_HOST_ID names a host");
}

// The Vulkan devices a check could be given (list_vulkan_gpus), narrowed by --device: to the
// devices whose name contains the text, or to the one an index names. Throws NoDevice.
std::vector<GpuListing> selected_gpus(const std::string& selector) {
  const bool by_index = !selector.empty() && selector.find_first_not_of("0123456789") == std::string::npos;
  auto gpus = list_vulkan_gpus(by_index ? "" : selector);
  if (by_index) std::erase_if(gpus, [&](const GpuListing& g) { return std::to_string(g.index) != selector; });
  return gpus;
}

// What a Vulkan perf test needs to itself: "gpu", one GPU (CTest hands out slots of the spec
// below), where the device a check opens is one; "machine", every core, where it is a CPU
// implementation such as llvmpipe or there is none (the test then skips at once).
std::string vulkan_test_needs(const std::string& selector) {
  try {
    const auto gpus = selected_gpus(selector);
    return !gpus.empty() && !gpus.front().on_cpu ? "gpu" : "machine";
  } catch (const NoDevice&) {
    return "machine";
  }
}

// The CTest resource spec of this host's GPUs (selected_gpus).
int write_resource_spec(const std::string& file, const std::string& selector) {
  std::vector<GpuListing> gpus;
  try {
    gpus = selected_gpus(selector);
  } catch (const NoDevice& e) {
    std::fprintf(stderr, "perfgate list: no Vulkan device: %s\n", e.reason.c_str());
  }
  for (const auto& g : gpus)
    std::fprintf(stderr, "perfgate list: gpus id %d: %s (machine id %s, uuid %s)\n", g.index, g.name.c_str(),
                 g.machine_id.c_str(), g.device_uuid.c_str());
  const std::string spec = resource_spec_json(gpus);
  if (file == "-")
    std::fputs(spec.c_str(), stdout);
  else
    write_file_atomically(file, spec);
  return gpus.empty() ? 77 : 0;
}

}  // namespace

int list_main(const ListFlags& flags) {
  if (flags.resource_spec) return write_resource_spec(*flags.resource_spec, flags.common.device);
  std::vector<Backend> backends;
  if (!flags.common.backend.empty()) backends.push_back(backend_from_string(flags.common.backend));
  if (flags.machine_id) {
    Backend b = backends.empty() ? best_backend(flags.common.device) : backends[0];
    OpenedDevice opened = open_backend(b, flags.common.device);
    if (!opened.device) {
      std::fprintf(stderr, "perfgate: no %s device: %s\n", std::string(to_string(b)).c_str(),
                   opened.missing_reason.c_str());
      return 77;
    }
    std::printf("%s\n", opened.device->fingerprint().machine_id.c_str());
    return 0;
  }
  const auto cases = select_cases(flags.common.selection(backends));
  if (flags.ctest) {  // read by ctest/PerfgateTests.cmake: "<case id> <kernel> <backend> <needs>"
    std::optional<std::string> vulkan_needs;  // asked once, and only when a Vulkan case is listed
    for (const auto& c : cases) {
      if (!c.kernel->default_suite()) continue;  // the calibration references are measured, never gated
      std::string needs = "machine";
      if (c.backend == Backend::vulkan) {
        if (!vulkan_needs) vulkan_needs = vulkan_test_needs(flags.common.device);
        needs = *vulkan_needs;
      }
      std::printf("%s %s %s %s\n", c.id.c_str(), c.kernel->name().c_str(),
                  std::string(to_string(c.backend)).c_str(), needs.c_str());
    }
    return 0;
  }
  // Narrowed by case or kernel names, only the kernels of the cases selected (once `list --kernel
  // copy` listed every kernel over copy's cases).
  const bool narrowed = !flags.common.cases.empty() || !flags.common.kernel_globs.empty();
  std::set<std::string> selected;
  for (const auto& c : cases) selected.insert(c.kernel->name());
  std::printf("kernels:\n");
  for (const KernelDef& k : registered_kernels()) {
    if (narrowed && !selected.count(k.name())) continue;
    std::string in;
    for (Backend b : {Backend::cpu, Backend::vulkan})
      if (k.has_backend(b)) in += (in.empty() ? "" : ",") + std::string(to_string(b));
    const char* peak = k.peak() && !peak_kernels_in_suite() ? " (peak kernel: measures % peak)" : "";
    std::printf("  %-16s [%s] %s%s\n", k.name().c_str(), in.c_str(), k.description().c_str(), peak);
  }
  for (const auto& [shader, why] : left_out_shaders())
    if (!narrowed || selected.count(shader.substr(0, shader.find('/'))))
      std::printf("  shader %s left out of this build: %s\n", shader.c_str(), why.c_str());
  std::printf("cases (%zu):\n", cases.size());
  for (const auto& c : cases) std::printf("  %s\n", c.id.c_str());
  print_devices(backends.empty() ? std::vector<Backend>{Backend::cpu, Backend::vulkan} : backends,
                flags.common.device);
  return 0;
}

}  // namespace perfgate
