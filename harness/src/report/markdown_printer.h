#pragma once
// A run as GitHub-flavoured Markdown, for a CI job summary or a pull request comment: the
// verdict counts, the machine, the verdict table worst first, why each case that did not pass
// got its verdict, and the breakdown of multi-stage cases.
#include <string>

#include "perfgate/result.h"

namespace perfgate {

std::string render_markdown(const RunResult& run);

}  // namespace perfgate
