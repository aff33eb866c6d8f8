#pragma once
// The pieces of a run's Markdown that the report (markdown_printer.h) and the pull request
// comment (pr_comment.h) both print: the verdict counts, the machine line, the verdict table,
// the A/B table and the list of why each case that did not pass got its verdict.
#include <string>

#include "perfgate/result.h"

namespace perfgate {

// "**1 error** · **2 regressed** · 3 pass", or "no cases".
std::string markdown_counts_line(const RunResult& run);
// The machine, device, driver, CPU, commit, branch and run id.
std::string markdown_machine_line(const RunResult& run);

// The verdict table's head (two lines) and one row per case.
std::string markdown_verdict_head();
std::string markdown_verdict_row(const CaseResult& c);

// The A/B section's heading and table head, and one row per case measured A/B ("" for another).
std::string markdown_ab_head();
std::string markdown_ab_row(const CaseResult& c);

// The "Why" section's heading, and one list item per case that did not pass and says why ("").
std::string markdown_why_head();
std::string markdown_why_item(const CaseResult& c);

}  // namespace perfgate
