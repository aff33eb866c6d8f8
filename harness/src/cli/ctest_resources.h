#pragma once
// CTest resource allocation (`ctest --resource-spec-file FILE`): the spec perfgate writes for
// this host's GPUs, and the GPU slot ctest gives a perf test through its environment.
#include <optional>
#include <string>
#include <vector>

#include "measure/device.h"

namespace perfgate {

// A `gpus` slot CTest allocated to a test.
struct GpuSlot {
  std::string resource_id;  // the id in the spec: "<device index>" or "<device index>_<n>"
  std::string device;       // the --device selector it names: the index
};

// From the values of CTEST_RESOURCE_GROUP_COUNT and CTEST_RESOURCE_GROUP_0_GPUS (nullptr when
// unset): nullopt when ctest allocated no GPU (no spec file, or a test without RESOURCE_GROUPS).
// An id whose leading digits name no device index is an Error naming the variable and value.
std::optional<GpuSlot> gpu_slot_from_ctest(const char* group_count, const char* group0_gpus);

// A resource spec (JSON, version 1.0) offering each device as one `gpus` entry of one slot, its
// id the device index. The same device may be offered twice by adding an entry "<index>_1".
std::string resource_spec_json(const std::vector<GpuListing>& gpus);

}  // namespace perfgate
