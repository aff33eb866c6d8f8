#pragma once
// Approved baselines: baselines/<machine id>/<kernel>.yaml, one entry per case
// (store/baseline_case.h).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "store/baseline_case.h"

namespace perfgate {

// The contents of one file, baselines/<machine id>/<kernel>.yaml (store/baseline_file.h).
struct KernelBaselines {
  std::string machine_id;
  std::string kernel;
  std::vector<BaselineCase> cases;  // sorted by id, ids unique
};

class BaselineStore {
 public:
  explicit BaselineStore(std::filesystem::path root) : root_(std::move(root)) {}
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path kernel_file(const std::string& machine_id, const std::string& kernel) const;

  // The approved baseline of a case on a machine, or nullopt. A file that exists but cannot be
  // parsed (truncated, edited by hand into nonsense) throws Error naming the file and line.
  std::optional<BaselineCase> find(const std::string& machine_id, const std::string& kernel,
                                   const std::string& case_id) const;
  // Every approved case of a machine (all machines when machine_id is empty).
  std::vector<BaselineCase> all(const std::string& machine_id = "") const;

  // baselines/<machine id>/; throws Error when the id is empty or would leave the root.
  // Throws Error where the id cannot name its folder as it is (store/machine_id.h); readers
  // (load, kernels) find no baselines for such an id instead.
  std::filesystem::path machine_dir(const std::string& machine_id) const;
  // The folder an approval or a drop writes into: a symbolic link there is refused (core/no_link.h).
  std::filesystem::path machine_dir_to_write(const std::string& machine_id) const;
  std::filesystem::path lock_file(const std::string& machine_id) const;   // held while writing
  std::filesystem::path log_file(const std::string& machine_id) const;    // APPROVALS.log
  std::vector<std::string> machines() const;                              // sorted
  std::vector<std::string> kernels(const std::string& machine_id) const;  // sorted
  // One kernel file, checked against its path; nullopt when there is none.
  std::optional<KernelBaselines> load(const std::string& machine_id, const std::string& kernel) const;

 private:
  std::filesystem::path root_;
};

}  // namespace perfgate
