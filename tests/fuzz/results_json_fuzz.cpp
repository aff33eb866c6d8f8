// The reader of results JSON (perfgate run --json FILE, read by compare, report and notify):
// the same refusals as read_results, which turns JSON errors into perfgate::Error.
#include <nlohmann/json.hpp>

#include "fuzz_target.h"
#include "store/result_json.h"

PERFGATE_FUZZ_TARGET([](const std::string& text) {
  try {
    perfgate::run_from_json(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw perfgate::Error(e.what());
  }
})
