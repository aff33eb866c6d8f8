#include "report/check_lines.h"

#include <fmt/format.h>

#include "report/ab_lines.h"

namespace perfgate {

std::string render_check_lines(const CaseResult& r) {
  std::string out = fmt::format("{}: {}\n", r.id, to_string(r.verdict));
  if (!r.message.empty()) out += fmt::format("  {}\n", r.message);
  // A wrong result's message already quotes the check.
  if (!r.check.empty() && r.message.find(r.check) == std::string::npos)
    out += fmt::format("  correctness: {}\n", r.check);
  for (const auto& j : r.judgements)
    out += fmt::format("  {:<15} {:<12} {}\n", j.metric, to_string(j.verdict), j.reason);
  return out + render_ab_sides(r);
}

}  // namespace perfgate
