// The GPU slot a perf test reads from CTest's environment, and the resource spec perfgate writes.
#include "cli/ctest_resources.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "perfgate/error.h"

namespace perfgate {
namespace {

TEST(CtestResources, NoAllocationWithoutTheGroupCount) {
  EXPECT_FALSE(gpu_slot_from_ctest(nullptr, nullptr));
  EXPECT_FALSE(gpu_slot_from_ctest(nullptr, "id:0,slots:1"));  // the count says an allocation is active
  EXPECT_FALSE(gpu_slot_from_ctest("1", nullptr));             // a test that asked for no GPU
}

TEST(CtestResources, TheIdNamesTheDeviceIndex) {
  const auto slot = gpu_slot_from_ctest("1", "id:3,slots:1");
  ASSERT_TRUE(slot);
  EXPECT_EQ(slot->resource_id, "3");
  EXPECT_EQ(slot->device, "3");
}

TEST(CtestResources, OneDeviceOfferedTwiceKeepsItsIndex) {
  const auto slot = gpu_slot_from_ctest("1", "id:0_1,slots:1");
  ASSERT_TRUE(slot);
  EXPECT_EQ(slot->resource_id, "0_1");
  EXPECT_EQ(slot->device, "0");
}

TEST(CtestResources, ForeignIdsAreErrorsNamingTheVariable) {
  for (const char* bad : {"id:gpu_a,slots:1", "id:0x,slots:1", "slots:1", "id:0,slots:1;id:1,slots:1"}) {
    try {
      gpu_slot_from_ctest("1", bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("CTEST_RESOURCE_GROUP_0_GPUS=") + bad),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(CtestResources, SpecIsVersionOneWithOneSlotPerGpu) {
  const auto spec = nlohmann::json::parse(
      resource_spec_json({{0, "NVIDIA H100", "nvidia-h100", "aa"}, {2, "NVIDIA H100", "nvidia-h100", "bb"}}));
  EXPECT_EQ(spec["version"]["major"], 1);
  EXPECT_EQ(spec["version"]["minor"], 0);
  ASSERT_EQ(spec["local"].size(), 1u);
  const auto& gpus = spec["local"][0]["gpus"];
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0]["id"], "0");
  EXPECT_EQ(gpus[1]["id"], "2");
  EXPECT_EQ(gpus[1]["slots"], 1);
}

}  // namespace
}  // namespace perfgate
