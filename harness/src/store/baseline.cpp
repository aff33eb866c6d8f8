#include "store/baseline.h"

#include <algorithm>
#include <new>

#include "core/atomic_file.h"
#include "core/no_link.h"
#include "core/yaml_load.h"
#include "perfgate/error.h"
#include "store/baseline_file.h"
#include "store/machine_id.h"
#include "store/update_journal.h"
#include "store/yaml_document.h"

namespace perfgate {
namespace {

bool is_baseline_file(const std::filesystem::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  // Hidden names are the lock and the temporary files of an interrupted write.
  return entry.is_regular_file() && entry.path().extension() == ".yaml" && !name.starts_with(".");
}

// A machine id or kernel name names a file or folder right under its parent: never a path.
bool is_plain_name(const std::string& name) {
  return !name.empty() && name.find('/') == std::string::npos && !name.starts_with(".");
}

}  // namespace

std::filesystem::path BaselineStore::kernel_file(const std::string& machine_id,
                                                 const std::string& kernel) const {
  if (!is_plain_name(kernel)) throw Error("not a kernel name: \"" + kernel + "\"");
  return machine_dir(machine_id) / (kernel + ".yaml");
}

std::filesystem::path BaselineStore::machine_dir(const std::string& machine_id) const {
  if (auto why = machine_id_problem(machine_id))
    throw Error(root_.string() + ": not a baselines folder name: " + *why);
  return root_ / machine_id;
}

std::filesystem::path BaselineStore::lock_file(const std::string& machine_id) const {
  return machine_dir(machine_id) / ".lock";
}

std::filesystem::path BaselineStore::machine_dir_to_write(const std::string& machine_id) const {
  // A folder that is a link would have the approval written wherever it points.
  refuse_linked_folder(machine_dir(machine_id), "the baselines folder");
  return machine_dir(machine_id);
}

std::filesystem::path BaselineStore::log_file(const std::string& machine_id) const {
  return machine_dir(machine_id) / "APPROVALS.log";
}

std::vector<std::string> BaselineStore::machines() const {
  std::vector<std::string> ids;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root_, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && !name.starts_with(".")) ids.push_back(name);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<std::string> BaselineStore::kernels(const std::string& machine_id) const {
  if (machine_id_problem(machine_id)) return {};  // no folder can be named so: no baselines
  finish_interrupted_update_locking(machine_dir(machine_id), lock_file(machine_id));
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(machine_dir(machine_id), ec))
    if (is_baseline_file(entry)) names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<KernelBaselines> BaselineStore::load(const std::string& machine_id,
                                                   const std::string& kernel) const {
  if (machine_id_problem(machine_id)) return std::nullopt;  // no folder can be named so: no baselines
  const std::filesystem::path file = kernel_file(machine_id, kernel);
  finish_interrupted_update_locking(machine_dir(machine_id), lock_file(machine_id));
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::nullopt;
  KernelBaselines b;
  try {
    b = parse_kernel_baselines(read_bounded_file(file, kMaxStoreFileBytes), file.string());
  } catch (const std::bad_alloc&) {
    throw Error(file.string() + ": does not fit in memory");
  }
  if (b.machine_id != machine_id || b.kernel != kernel)
    throw Error(file.string() + ": holds machine " + b.machine_id + ", kernel " + b.kernel +
                ", but its path says machine " + machine_id + ", kernel " + kernel);
  return b;
}

std::optional<BaselineCase> BaselineStore::find(const std::string& machine_id, const std::string& kernel,
                                                const std::string& case_id) const {
  if (machine_id.empty()) return std::nullopt;
  std::optional<KernelBaselines> b = load(machine_id, kernel);
  if (!b) return std::nullopt;
  for (auto& c : b->cases)
    if (c.id == case_id) return std::move(c);
  return std::nullopt;
}

std::vector<BaselineCase> BaselineStore::all(const std::string& machine_id) const {
  std::vector<BaselineCase> cases;
  const std::vector<std::string> ids = machine_id.empty() ? machines() : std::vector{machine_id};
  for (const auto& id : ids)
    for (const auto& kernel : kernels(id)) {
      std::optional<KernelBaselines> file = load(id, kernel);
      if (!file) continue;  // removed since it was listed
      for (auto& c : file->cases) cases.push_back(std::move(c));
    }
  return cases;
}

}  // namespace perfgate
