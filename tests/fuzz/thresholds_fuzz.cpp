// The reader of thresholds/*.yaml.
#include "fuzz_target.h"
#include "judge/thresholds.h"

PERFGATE_FUZZ_TARGET([](const std::string& text) {
  const perfgate::ThresholdSet set = perfgate::ThresholdSet::from_yaml_text(text, "fuzz.yaml");
  set.resolve("copy/cpu/n=1048576", "cpu-fuzz-2t");
})
