#pragma once
// The approved baselines a run was judged against, as a run of samples the HTML report draws
// beside the run's own (once it said "No baseline results given" for a run judged against them).
#include <string>

#include "perfgate/result.h"
#include "store/baseline.h"

namespace perfgate {

// Per case of `run` judged against a stored baseline that `store` still holds as judged (its
// pooled median of the judged metric is the judgement's baseline median), a case carrying the
// baseline's runs pooled per metric. Cases judged A/B, not judged, or whose baseline has since
// changed or gone, are left out.
RunResult approved_baseline_run(const RunResult& run, const BaselineStore& store);

}  // namespace perfgate
