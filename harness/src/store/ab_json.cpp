#include "store/ab_json.h"

#include <cmath>
#include <limits>

#include "store/result_json.h"

namespace perfgate {
namespace {

using json = nlohmann::json;

json finite_or_null(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

double number_or_infinity(const json& value) {
  return value.is_null() ? std::numeric_limits<double>::infinity() : value.get<double>();
}

}  // namespace

json to_json(const AbBuild& b) {
  return {{"binary", b.binary},
          {"perfgate_version", b.perfgate_version},
          {"source_hash", b.source_hash},
          {"fingerprint", to_json(b.fingerprint)},
          {"latency_ns", b.latency_ns}};
}

AbBuild ab_build_from_json(const json& j) {
  AbBuild b;
  b.binary = j.value("binary", "");
  b.perfgate_version = j.value("perfgate_version", "");
  b.source_hash = j.value("source_hash", "");
  if (j.contains("fingerprint")) b.fingerprint = fingerprint_from_json(j.at("fingerprint"));
  b.latency_ns = j.value("latency_ns", 0.0);
  return b;
}

json to_json(const AbComparison& ab) {
  return {{"base", to_json(ab.base)},
          {"head", to_json(ab.head)},
          {"rounds", ab.rounds},
          {"median_ratio", ab.median_ratio},
          {"interval", {finite_or_null(ab.interval_low), finite_or_null(ab.interval_high)}},
          {"p_value", ab.p_value},
          {"max_regression_pct", ab.max_regression_pct},
          {"ratios", ab.ratios}};
}

AbComparison ab_from_json(const json& j) {
  AbComparison ab;
  ab.base = ab_build_from_json(j.at("base"));
  ab.head = ab_build_from_json(j.at("head"));
  ab.rounds = j.at("rounds");
  ab.median_ratio = j.at("median_ratio");
  const json& interval = j.at("interval");
  ab.interval_low = number_or_infinity(interval.at(0));
  ab.interval_high = number_or_infinity(interval.at(1));
  ab.p_value = j.value("p_value", 1.0);
  ab.max_regression_pct = j.value("max_regression_pct", 0.0);
  ab.ratios = j.value("ratios", std::vector<double>{});
  return ab;
}

}  // namespace perfgate
