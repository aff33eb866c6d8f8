#pragma once
// The change an A/B check (`check --base`, each step of `bisect`) tolerates between head and base
// before it calls the head slower. Both builds run at the same moment, so a period's moves cancel
// in their ratio; what stays is how far two processes of the same code differ on this device
// (placement of their buffers and code, the device's state when each started). A baseline
// approved on this device measured exactly that: its runs are processes of their own, minutes
// apart. Where it exists, the allowance is noise_factor x the 90% bound of the ratio's sigma
// (sqrt(2) x the runs' sigma: two processes, not one against a pooled baseline), never finer than
// the timer resolves; the prior ab_max_regression_pct (measured on a 2-vCPU VM: +10% caught 20/20,
// A/A 0/100) stands where nothing here measured the case, and caps the measured one, since the
// paired design was shown to hold there whatever the baseline's runs spread.
#include <string>

#include "judge/thresholds.h"
#include "perfgate/result.h"
#include "store/baseline_case.h"

namespace perfgate {

struct AbAllowance {
  double pct = 0;
  std::string source;  // "noise": this device's baseline runs; "fixed": ab_max_regression_pct
  std::string why;     // "4 x sqrt(2) x sigma <= 0.02% (5 runs of this device's baseline, 90% bound)"
};

// `baseline`: the case's approved baseline for `here`'s machine id, or null. Counts only the
// runs measured on `here`'s device (its GPU, by uuid), else on its host.
AbAllowance ab_allowance(const Thresholds& thresholds, const BaselineCase* baseline, const Fingerprint& here);

}  // namespace perfgate
