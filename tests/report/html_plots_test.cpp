// The HTML report's plots: a history's x axis names each run apart.
#include "report/html_plots.h"

#include <gtest/gtest.h>

#include <set>

namespace perfgate {
namespace {

TEST(HtmlHistoryLabels, RunsOfOneMinuteAreToldApart) {
  const std::vector<std::string> labels =
      html::history_labels({"2026-11-28T15:39:58Z", "2026-11-28T15:40:07Z", "2026-11-28T15:40:41Z",
                            "2026-11-28T15:41:00Z", "2026-11-28T15:41:00Z"});
  EXPECT_EQ(labels, (std::vector<std::string>{"11-28 15:39", "11-28 15:40:07", "11-28 15:40:41",
                                              "11-28 15:41:00", "11-28 15:41:00 #2"}));
  EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());
}

}  // namespace
}  // namespace perfgate
