// Several results files as one run per device: every file counts, none replaces another.
#include "core/device_runs.h"

#include <gtest/gtest.h>

#include "perfgate/error.h"

namespace perfgate {
namespace {

ResultsFile device_runs_file(const std::string& path, const std::string& machine, const std::string& host,
                             const std::string& uuid, const std::vector<std::string>& case_ids) {
  ResultsFile file{path, {}};
  file.run.run_id = path.substr(0, path.find('.'));
  file.run.fingerprint.machine_id = machine;
  file.run.fingerprint.host_id = host;
  file.run.fingerprint.device_uuid = uuid;
  for (const auto& id : case_ids) {
    CaseResult c;
    c.id = id;
    file.run.cases.push_back(c);
  }
  return file;
}

TEST(DeviceRuns, FilesOfOneDeviceWithCasesApartMerge) {
  const auto devices = runs_per_device({device_runs_file("b.json", "llvmpipe", "h1", "", {"copy/n=1"}),
                                        device_runs_file("a.json", "llvmpipe", "h1", "", {"fill/n=1"})});
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].label, "llvmpipe");
  EXPECT_EQ(devices[0].run.cases.size(), 2u);
  EXPECT_EQ(devices[0].run.run_id, "a+b");  // in any order of the files
  EXPECT_EQ(devices[0].paths, (std::vector<std::string>{"b.json", "a.json"}));
}

TEST(DeviceRuns, OneCaseInTwoFilesOfOneDeviceIsRefusedNamingBoth) {
  try {
    runs_per_device({device_runs_file("reg.json", "llvmpipe", "h1", "u1", {"copy/n=1"}),
                     device_runs_file("pass.json", "llvmpipe", "h1", "u1", {"fill/n=1", "copy/n=1"})});
    FAIL() << "two runs of one case on one device were merged";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("reg.json and pass.json both hold case copy/n=1"), std::string::npos) << what;
  }
}

TEST(DeviceRuns, DevicesOfOneMachineIdAreToldApartByWhatDiffers) {
  const auto by_uuid =
      runs_per_device({device_runs_file("a.json", "nvidia-h100", "h1", "4b1d0e77aaaa", {"copy/n=1"}),
                       device_runs_file("b.json", "nvidia-h100", "h1", "9c2e1f3abbbb", {"copy/n=1"}),
                       device_runs_file("c.json", "llvmpipe", "h1", "", {"copy/n=1"})});
  ASSERT_EQ(by_uuid.size(), 3u);
  EXPECT_EQ(by_uuid[0].label, "llvmpipe");
  EXPECT_EQ(by_uuid[1].label, "nvidia-h100 (device 4b1d0e77)");
  EXPECT_EQ(by_uuid[2].label, "nvidia-h100 (device 9c2e1f3a)");
  const auto by_host =
      runs_per_device({device_runs_file("a.json", "cpu-2t", "", "", {"copy/n=1"}),
                       device_runs_file("b.json", "cpu-2t", "1f3a9c2e77", "", {"copy/n=1"})});
  ASSERT_EQ(by_host.size(), 2u);
  EXPECT_EQ(by_host[0].label, "cpu-2t (host unknown)");
  EXPECT_EQ(by_host[1].label, "cpu-2t (host 1f3a9c2e)");
  // Ids alike in their first 8 characters still give two headings.
  const auto alike = runs_per_device({device_runs_file("a.json", "cpu-2t", "1f3a9c2e77", "", {"copy/n=1"}),
                                      device_runs_file("b.json", "cpu-2t", "1f3a9c2e88", "", {"copy/n=1"})});
  ASSERT_EQ(alike.size(), 2u);
  EXPECT_EQ(alike[0].label, "cpu-2t (host 1f3a9c2e)");
  EXPECT_EQ(alike[1].label, "cpu-2t (host 1f3a9c2e) #2");
}

}  // namespace
}  // namespace perfgate
