#pragma once
// An approved baseline of one case: samples from several separate runs, the fingerprint they
// were measured on and who approved them. The judge compares against it; store/ loads and saves
// it (store/baseline.h, store/baseline_file.h).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct Approval {
  std::string by;
  std::string at;  // ISO 8601 UTC
  std::string reason;
  std::string commit;
};

struct BaselineCase {
  std::string id;  // case id
  std::string kernel;
  std::string backend;
  Fingerprint fingerprint;
  std::string perfgate_version;
  std::string source_hash;
  std::string measured_at;  // ISO 8601 UTC
  std::string commit;       // the commit the samples were measured at
  // Whether the case's working set fitted in the device's last-level cache when it was measured
  // (CaseResult::fits_in_cache); it chooses the floor a check applies (dram_min_allowed_pct).
  // Unknown in files written before it was recorded.
  std::optional<bool> fits_in_cache;
  // What bound the case's time in its runs (CaseResult::bound: memory, compute or latency; a
  // run's compute or latency wins over another's memory): it chooses the floor a check applies
  // (compute_min_allowed_pct), not the check's own bound, which a slowdown moves. Empty in files
  // written before it was recorded: the check's bound chooses then.
  std::string bound;
  // The reference a calibrated case was measured against (CaseResult::calibration_reference): a
  // check of the case is calibrated against the same one. Empty when uncalibrated, or in files
  // written before it was recorded.
  std::string calibration_reference;
  // The share of its runs' time the case's threads waited for a core (CaseResult::cpu_wait_share,
  // the median over runs): a check's waiting beyond it is what a busy machine added
  // (judge/load_allowance.h). 0 where none was recorded (files written before, or none waited).
  double cpu_wait_share = 0;
  // metric name -> runs -> samples: run-to-run spread is part of what counts as noise.
  std::map<std::string, std::vector<std::vector<double>>> runs;
  // The device uuid of each run, in the order of latency_ns's runs, where the runs span several
  // devices of one host (`baseline propose` on a host with several GPUs of the model); empty
  // where every run measured `fingerprint`'s device. A check judges its own device's runs.
  std::vector<std::string> run_devices;
  // Where a check is judged against its own GPU's runs (runs_of_device), the run medians of each
  // GPU the runs measured, by metric: how far each GPU's runs spread
  // about their own level, pooled, is what concurrency and the model's noise do to any of them
  // (judge/device_spread.h). Metric -> device -> its runs' medians. Empty otherwise; never
  // written to a file.
  std::map<std::string, std::map<std::string, std::vector<double>>> device_run_medians;
  // The proposals (periods) its runs came from: 1 for one `baseline propose`, whose runs are
  // minutes apart, more where `baseline merge` pooled proposals of other periods (leases,
  // reboots, hours). On a machine whose cores are shared (a time the host keeps), one period's
  // runs cannot say how far the level moves between periods (judge/judge_case.cpp).
  int periods = 1;
  Approval approval;
};

}  // namespace perfgate
