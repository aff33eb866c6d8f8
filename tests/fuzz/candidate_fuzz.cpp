// The reader of baseline candidates (perfgate baseline propose --out FILE).
#include "fuzz_target.h"
#include "store/candidate.h"

PERFGATE_FUZZ_TARGET([](const std::string& text) { perfgate::parse_candidate(text, "fuzz.yaml"); })
