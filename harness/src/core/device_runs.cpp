#include "core/device_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "perfgate/error.h"

namespace perfgate {
namespace {

using DeviceKey = std::tuple<std::string, std::string, std::string>;  // machine id, host, device

DeviceKey device_key(const Fingerprint& f) { return {f.machine_id, f.host_id, f.device_uuid}; }

std::string short_id(const std::string& id) { return id.empty() ? "unknown" : id.substr(0, 8); }

// "host 1f3a9c2e", "device 4b1d0e77" or both: what differs between the devices of one machine id.
std::string distinction(const Fingerprint& f, bool hosts_differ, bool devices_differ) {
  std::string text;
  if (hosts_differ) text = "host " + short_id(f.host_id);
  if (devices_differ) text += (text.empty() ? "" : ", ") + ("device " + short_id(f.device_uuid));
  return text;
}

// "a+b": the ids of a device's files, sorted, so that their order does not change the run id.
std::string joined_run_ids(const std::string& joined, const std::string& id) {
  std::set<std::string> ids{id};
  for (std::size_t start = 0; start <= joined.size();) {
    const std::size_t plus = std::min(joined.find('+', start), joined.size());
    ids.insert(joined.substr(start, plus - start));
    start = plus + 1;
  }
  ids.erase("");
  std::string out;
  for (const std::string& one : ids) out += (out.empty() ? "" : "+") + one;
  return out;
}

}  // namespace

std::vector<DeviceRun> runs_per_device(std::vector<ResultsFile> files) {
  std::map<DeviceKey, DeviceRun> by_device;
  std::map<DeviceKey, std::map<std::string, std::string>> case_file;  // case id -> path
  for (ResultsFile& file : files) {
    const DeviceKey key = device_key(file.run.fingerprint);
    auto& seen = case_file[key];
    for (const CaseResult& c : file.run.cases) {
      auto [it, added] = seen.try_emplace(c.id, file.path);
      if (!added)
        throw Error(fmt::format(
            "{} and {} both hold case {} of one device of machine {}: they are two runs of it, and "
            "neither may hide the other's verdict; give one of them (or `perfgate compare` them)",
            it->second, file.path, c.id, file.run.fingerprint.machine_id));
    }
    auto [it, added] = by_device.try_emplace(key, DeviceRun{"", file.run, {file.path}});
    if (added) continue;
    DeviceRun& merged = it->second;
    merged.paths.push_back(file.path);
    merged.run.run_id = joined_run_ids(merged.run.run_id, file.run.run_id);
    for (CaseResult& c : file.run.cases) merged.run.cases.push_back(std::move(c));
  }
  // Labels: the machine id, and where several devices share it what tells them apart.
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> hosts_devices;
  std::map<std::string, int> devices_of;
  for (const auto& [key, device] : by_device) {
    auto& [hosts, uuids] = hosts_devices[std::get<0>(key)];
    hosts.insert(std::get<1>(key));
    uuids.insert(std::get<2>(key));
    ++devices_of[std::get<0>(key)];
  }
  std::vector<DeviceRun> out;
  std::set<std::string> labels;
  for (auto& [key, device] : by_device) {
    const std::string& machine = std::get<0>(key);
    device.label = machine;
    if (devices_of[machine] > 1) {
      const auto& [hosts, uuids] = hosts_devices[machine];
      device.label += " (" + distinction(device.run.fingerprint, hosts.size() > 1, uuids.size() > 1) + ")";
    }
    // Ids alike in their first 8 characters: numbered, so that no two columns read the same.
    for (int n = 2; labels.count(device.label); ++n)
      device.label = fmt::format("{} #{}", device.label.substr(0, device.label.find(" #")), n);
    labels.insert(device.label);
    out.push_back(std::move(device));
  }
  return out;
}

}  // namespace perfgate
