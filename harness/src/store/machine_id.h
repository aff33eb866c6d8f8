#pragma once
// A machine id names a folder (baselines/<machine id>/) and a file (<history>/<machine id>.jsonl),
// so it is used as it is, one id to one name, or refused: letters, digits, '-', '_' and '.', not
// starting with '.', at most kMaxMachineIdChars. perfgate's own ids (`list --machine-id`) are
// such slugs; one from an edited results file or --machine-id may not be.
#include <cstddef>
#include <optional>
#include <string>

namespace perfgate {

constexpr std::size_t kMaxMachineIdChars = 200;

// Why `id` cannot name a file ("\"../../x\" holds '/'"), or nullopt.
std::optional<std::string> machine_id_problem(const std::string& id);

}  // namespace perfgate
