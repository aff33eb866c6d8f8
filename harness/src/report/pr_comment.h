#pragma once
// A run as the one comment perfgate keeps on a pull request (GitHub) or merge request (GitLab),
// updated in place on each push by ci/pr_comment.py: a hidden marker line that finds it again,
// the verdict counts, the machine, the geomean with its interval, the verdict table worst first,
// the A/B table, why each case that did not pass got its verdict, and a link to the run's page
// on the dashboard. Every string from the results file is escaped (report/markdown_text.h), and
// the body is bounded: rows past the bound are left out with a line that says how many.
#include <cstddef>
#include <string>
#include <string_view>

#include "perfgate/result.h"

namespace perfgate {

// The first line of every comment perfgate writes: an HTML comment, which neither GitHub nor
// GitLab shows.
inline constexpr std::string_view pr_comment_marker = "<!-- perfgate-pr-comment -->";

// GitHub refuses a comment over 65,536 characters; bytes bound characters from above.
inline constexpr std::size_t pr_comment_max_bytes = 65'536;

struct PrCommentOptions {
  std::string dashboard_url;  // the dashboard's root; "" leaves the link out
  std::size_t max_bytes = pr_comment_max_bytes;
};

// "<dashboard>/index.html#/run/<run id>", the run id percent-encoded. Throws perfgate::Error
// naming --dashboard-url for a URL that is not http(s):// or holds a space, a control character,
// a quote, '<', '>' or a parenthesis (it would end the Markdown link).
std::string dashboard_run_link(const std::string& dashboard_url, const std::string& run_id);

std::string render_pr_comment(const RunResult& run, const PrCommentOptions& options = {});

}  // namespace perfgate
