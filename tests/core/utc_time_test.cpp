// The times a history is ordered by: ISO 8601 UTC read strictly (an offset converted), text that
// is no time and a time past this machine's clock refused, with the value in the message.
#include "core/utc_time.h"

#include <gtest/gtest.h>

namespace perfgate {
namespace {

TEST(UtcTime, ReadsPerfgatesOwnFormAndGoogleBenchmarksOffsets) {
  EXPECT_EQ(parse_utc_time("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_utc_time("2026-11-29T10:11:00Z"), 1795947060);
  EXPECT_EQ(parse_utc_time("2026-11-29T10:11:00.250Z"), 1795947060);
  EXPECT_EQ(parse_utc_time("2026-11-29T12:11:00+02:00"), 1795947060);
  EXPECT_EQ(parse_utc_time("2026-11-29 05:11:00-0500"), 1795947060);
  EXPECT_EQ(parse_utc_time("2024-02-29T00:00:00Z"), 1709164800);  // a leap day
  EXPECT_EQ(utc_time_text(1795947060), "2026-11-29T10:11:00Z");
}

TEST(UtcTime, RefusesWhatIsNoTime) {
  for (const char* text :
       {"", "zzz", "1000", "2026-11-29", "2026-11-29T10:11:00", "2026-11-29T10:11:00ZZ",
        "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2026-11-29T24:00:00Z",
        "2026-11-29T10:61:00Z", "1969-12-31T23:59:59Z", "2026-11-29T10:11:00.Z", "2026-11-29T10:11:00+2:00",
        "2026-11-29T10:11:00+25:00", "2026-11-29T10:11:00+02:00x", "２026-11-29T10:11:00Z"})
    EXPECT_FALSE(parse_utc_time(text)) << text;
}

TEST(UtcTime, ARecordedTimeIsNotInTheFuture) {
  const std::time_t now = 1795947060;  // 2026-11-29T10:11:00Z
  EXPECT_FALSE(recorded_time_problem("2026-11-29T10:11:00Z", now));
  EXPECT_FALSE(recorded_time_problem("2026-11-29T11:10:00Z", now));  // a clock a little ahead
  const auto future = recorded_time_problem("2099-01-01T00:00:00Z", now);
  ASSERT_TRUE(future);
  EXPECT_NE(
      future->find("2099-01-01T00:00:00Z is in the future (this machine's clock says 2026-11-29T10:11:00Z)"),
      std::string::npos)
      << *future;
  const auto text = recorded_time_problem("zzz", now);
  ASSERT_TRUE(text);
  EXPECT_NE(text->find("\"zzz\" is not an ISO 8601 UTC time"), std::string::npos) << *text;
  EXPECT_TRUE(recorded_time_problem("", now));
}

}  // namespace
}  // namespace perfgate
