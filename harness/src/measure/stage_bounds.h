#pragma once
// Which ceiling bounds each stage of a multi-dispatch plan, judged when the case is measured and
// kept in its result, so that a report prints a stage's bound from the results alone (those of
// another machine or another build too).
#include <map>
#include <string>

#include "perfgate/kernel.h"
#include "perfgate/result.h"

namespace perfgate {

// Bytes and flops of each stage by stage name, when the kernel knows them.
using StageCosts = std::map<std::string, Cost>;

// Per-stage costs from the kernel registry, by the suite's convention that a pipeline kernel
// `<family>_<anything>` has its stage `<stage>` registered as kernel `<family>_<stage>` over the
// same parameters (attention_layer's "scores" is attention_scores). Stages without such a
// kernel, or whose kernel does not take these parameters, are left out.
StageCosts stage_costs_from_registry(const CaseResult& result);

// Sets each stage's bound, bound_reason and pct_of_peak from its cost, its median time and
// `peaks`; a stage without a cost keeps an empty bound. A stage's working set is not known
// apart: the bytes it moves stand for it against the cache size.
void classify_stages(CaseResult& result, const StageCosts& costs, const Peaks& peaks);

}  // namespace perfgate
