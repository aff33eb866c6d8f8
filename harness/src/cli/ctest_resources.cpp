#include "cli/ctest_resources.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "perfgate/error.h"

namespace perfgate {

std::optional<GpuSlot> gpu_slot_from_ctest(const char* group_count, const char* group0_gpus) {
  if (!group_count || !*group_count || !group0_gpus || !*group0_gpus) return std::nullopt;
  // "id:0_1,slots:1"; a group of one slot on one GPU has exactly one pair.
  const std::string value = group0_gpus;
  const auto bad = [&](const std::string& why) {
    return Error("CTEST_RESOURCE_GROUP_0_GPUS=" + value + ": " + why);
  };
  if (value.rfind("id:", 0) != 0) throw bad("expected id:<id>,slots:<n>");
  const auto comma = value.find(',');
  GpuSlot slot;
  slot.resource_id = value.substr(3, comma == std::string::npos ? std::string::npos : comma - 3);
  if (value.find(';') != std::string::npos)
    throw bad("perf tests ask for one GPU (RESOURCE_GROUPS gpus:1), this names several");
  std::size_t digits = 0;
  while (digits < slot.resource_id.size() &&
         std::isdigit(static_cast<unsigned char>(slot.resource_id[digits])))
    ++digits;
  if (digits == 0 || (digits < slot.resource_id.size() && slot.resource_id[digits] != '_'))
    throw bad(
        "a gpus id is the Vulkan device index, optionally followed by _<n> (perfgate list --resource-spec)");
  slot.device = slot.resource_id.substr(0, digits);
  return slot;
}

std::string resource_spec_json(const std::vector<GpuListing>& gpus) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& g : gpus) entries.push_back({{"id", std::to_string(g.index)}, {"slots", 1}});
  const nlohmann::ordered_json spec = {{"version", {{"major", 1}, {"minor", 0}}},
                                       {"local", nlohmann::ordered_json::array({{{"gpus", entries}}})}};
  return spec.dump(2) + "\n";
}

}  // namespace perfgate
