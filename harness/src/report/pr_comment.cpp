#include "report/pr_comment.h"

#include <fmt/format.h>

#include <cctype>
#include <vector>

#include "core/resolution.h"
#include "perfgate/error.h"
#include "perfgate/run_summary.h"
#include "report/markdown_sections.h"
#include "report/markdown_text.h"
#include "stats/geometric_mean.h"

namespace perfgate {
namespace {

// The line that stands for the rows a section had no room for; this many bytes at most.
constexpr std::size_t omitted_line_bytes = 160;

std::string omitted_line(std::size_t omitted, std::size_t total, const char* rows) {
  return fmt::format(
      "\n_{} of {} {} left out: the comment is kept under GitHub's 65,536 characters; the job's report has "
      "them all._\n",
      omitted, total, rows);
}

struct CommentSection {
  std::string head;
  std::vector<std::string> rows;
  const char* rows_name;  // "cases", "A/B cases", "reasons"
};

// Adds a section's head and as many of its rows (worst first) as `budget` holds, then the line
// that counts the rest.
void append_bounded(std::string& out, const CommentSection& section, std::size_t& budget) {
  if (section.rows.empty()) return;
  std::size_t kept = 0;
  if (section.head.size() + section.rows.front().size() <= budget) {
    out += section.head;
    budget -= section.head.size();
    for (; kept < section.rows.size() && section.rows[kept].size() <= budget; ++kept) {
      out += section.rows[kept];
      budget -= section.rows[kept].size();
    }
  }
  if (kept < section.rows.size())
    out += omitted_line(section.rows.size() - kept, section.rows.size(), section.rows_name);
}

bool url_unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

}  // namespace

std::string dashboard_run_link(const std::string& dashboard_url, const std::string& run_id) {
  const bool web = dashboard_url.starts_with("https://") || dashboard_url.starts_with("http://");
  for (const char c : dashboard_url) {
    const auto byte = static_cast<unsigned char>(c);
    if (!web || byte <= 0x20 || byte >= 0x7F ||
        std::string_view("\"'<>()\\`").find(c) != std::string_view::npos)
      throw Error(
          fmt::format("--dashboard-url '{}': expected an http:// or https:// URL without spaces, quotes, "
                      "'<', '>', parentheses or non-ASCII characters (percent-encode them)",
                      dashboard_url));
  }
  std::string root = dashboard_url;
  while (root.ends_with('/')) root.pop_back();
  std::string id;
  for (const char c : run_id)
    id += url_unreserved(static_cast<unsigned char>(c))
              ? std::string(1, c)
              : fmt::format("%{:02X}", static_cast<unsigned char>(c));
  return root + "/index.html#/run/" + id;
}

std::string render_pr_comment(const RunResult& run, const PrCommentOptions& options) {
  std::string head = std::string(pr_comment_marker) + "\n## perfgate: " + markdown_counts_line(run) + "\n\n" +
                     markdown_machine_line(run) + "\n\n";
  if (const auto geomean = run_geometric_mean(run)) head += geometric_mean_text(*geomean) + "\n\n";
  if (const std::string resolution = run_resolution(run); !resolution.empty())
    head += markdown_cell(resolution) + "\n\n";
  std::string link;
  if (!options.dashboard_url.empty() && !run.run_id.empty())
    link = "\n[This run on the dashboard](" + dashboard_run_link(options.dashboard_url, run.run_id) + ")\n";

  std::vector<CommentSection> sections = {{markdown_verdict_head(), {}, "cases"},
                                          {markdown_ab_head(), {}, "A/B cases"},
                                          {markdown_why_head(), {}, "reasons"}};
  for (const CaseResult* c : worst_first(run)) {
    sections[0].rows.push_back(markdown_verdict_row(*c));
    if (std::string row = markdown_ab_row(*c); !row.empty()) sections[1].rows.push_back(std::move(row));
    if (std::string item = markdown_why_item(*c); !item.empty()) sections[2].rows.push_back(std::move(item));
  }
  const std::size_t fixed = head.size() + link.size() + sections.size() * omitted_line_bytes;
  if (fixed > options.max_bytes)
    throw Error(
        fmt::format("the pull request comment of run '{}' needs {} bytes before its first row, over its "
                    "limit of {}: its machine, branch or run id is too long",
                    run.run_id, fixed, options.max_bytes));
  std::size_t budget = options.max_bytes - fixed;
  std::string out = head;
  for (const CommentSection& section : sections) append_bounded(out, section, budget);
  return out + link;
}

}  // namespace perfgate
