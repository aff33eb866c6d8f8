#include "perfgate/result.h"

#include "perfgate/error.h"

namespace perfgate {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "pass";
    case Verdict::improved: return "improved";
    case Verdict::regressed: return "regressed";
    case Verdict::inconclusive: return "inconclusive";
    case Verdict::no_baseline: return "no-baseline";
    case Verdict::skipped: return "skipped";
    case Verdict::error: return "error";
  }
  return "error";
}

Verdict verdict_from_string(std::string_view name) {
  for (Verdict v : {Verdict::pass, Verdict::improved, Verdict::regressed, Verdict::inconclusive,
                    Verdict::no_baseline, Verdict::skipped, Verdict::error})
    if (to_string(v) == name) return v;
  throw Error("unknown verdict '" + std::string(name) + "'");
}

int exit_code(Verdict verdict, bool require_baseline) {
  switch (verdict) {
    case Verdict::pass:
    case Verdict::improved:
    case Verdict::inconclusive: return 0;
    case Verdict::regressed: return 1;
    case Verdict::error: return 2;
    case Verdict::no_baseline: return require_baseline ? 1 : 77;
    case Verdict::skipped: return 77;
  }
  return 2;
}

int severity(Verdict verdict) {
  switch (verdict) {
    case Verdict::error: return 0;
    case Verdict::regressed: return 1;
    case Verdict::inconclusive: return 2;
    case Verdict::no_baseline: return 3;
    case Verdict::improved: return 4;
    case Verdict::pass: return 5;
    case Verdict::skipped: return 6;
  }
  return 0;
}

std::string case_id(std::string_view kernel, Backend backend, const Params& params) {
  std::string id = std::string(kernel) + "/" + std::string(to_string(backend));
  if (!params.values().empty()) id += "/" + params.id();
  return id;
}

}  // namespace perfgate
