// A machine id names a file as it is, or is refused: one id, one file.
#include "store/machine_id.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

TEST(MachineId, PerfgatesSlugsNameFiles) {
  for (const char* id : {"cpu-amd-epyc-7b13-2t", "nvidia-h200", "a-b", "a_b.c", "A1"})
    EXPECT_FALSE(machine_id_problem(id)) << id;
}

TEST(MachineId, RefusesWhatCannotNameAFileOneToOne) {
  const auto why = [](const std::string& id) { return machine_id_problem(id).value_or(""); };
  EXPECT_NE(why("../../x").find("starts with '.'"), std::string::npos) << why("../../x");
  EXPECT_NE(why("a/b").find("machine id \"a/b\" holds '/'"), std::string::npos) << why("a/b");
  EXPECT_NE(why("a\nb").find("holds 0x0a"), std::string::npos) << why("a\nb");
  EXPECT_NE(why("a b").find("holds ' '"), std::string::npos);
  EXPECT_NE(why("").find("empty"), std::string::npos);
  EXPECT_NE(why(std::string(201, 'a')).find("longer than 200"), std::string::npos);
  EXPECT_NE(why("caf\xc3\xa9").find("holds 0xc3"), std::string::npos);
}

}  // namespace
}  // namespace perfgate
