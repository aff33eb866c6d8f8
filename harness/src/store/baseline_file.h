#pragma once
// The YAML of one baseline file, baselines/<machine id>/<kernel>.yaml: the approved cases of one
// kernel on one machine, sorted by case id so that a new approval changes only its own lines.
#include <string>
#include <vector>

#include "store/baseline.h"

namespace perfgate {

std::string to_yaml(const KernelBaselines& baselines);
// Throws Error naming `file` and the line: malformed YAML, a missing or mistyped field, or a
// case count that disagrees with the cases found (a file cut short).
KernelBaselines parse_kernel_baselines(const std::string& text, const std::string& file);

// Puts `updated` in place of the case with its id, or adds it; keeps the order by id.
void upsert(KernelBaselines& baselines, BaselineCase updated);

}  // namespace perfgate
