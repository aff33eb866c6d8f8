// The reader of baselines/<machine id>/<kernel>.yaml.
#include "fuzz_target.h"
#include "store/baseline_file.h"

PERFGATE_FUZZ_TARGET([](const std::string& text) { perfgate::parse_kernel_baselines(text, "fuzz.yaml"); })
