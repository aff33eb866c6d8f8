#pragma once
// Several results files as one run per device, for the reports and the alert over several
// machines. GPUs of one model share a machine id, so two jobs of a CI matrix give two files of
// one machine id: every file counts. Files of one device (machine id, host and device uuid)
// whose cases are apart (a run split over files) are merged; files of one device that both hold
// a case are refused, naming both, since neither may hide the other's verdict.
#include <string>
#include <vector>

#include "perfgate/result.h"

namespace perfgate {

struct ResultsFile {
  std::string path;
  RunResult run;
};

struct DeviceRun {
  // The machine id; where several devices share it, with what tells them apart:
  // "nvidia-h100-80gb-hbm3 (host 1f3a9c2e)", "llvmpipe (device 4b1d0e77)".
  std::string label;
  RunResult run;  // the run ids of merged files joined by '+'
  std::vector<std::string> paths;
};

// In order of machine id, host and device; throws Error when two files of one
// device hold the same case.
std::vector<DeviceRun> runs_per_device(std::vector<ResultsFile> files);

}  // namespace perfgate
