#pragma once
// The Slack incoming-webhook payload: a plain `text` (notifications, clients without blocks)
// and Block Kit blocks: header, counts, context, the worst deltas first, a link to the CI job.
// Slack's documented limits are kept: <= 50 blocks, header text <= 150 characters, section
// text <= 3000, context <= 10 elements, button text <= 75, URLs <= 3000.
#include <nlohmann/json.hpp>

#include "notify/run_digest.h"
#include "perfgate/result.h"

namespace perfgate {

struct SlackLimits {
  static constexpr std::size_t max_blocks = 50;
  static constexpr std::size_t header_chars = 150;
  static constexpr std::size_t section_chars = 3000;
  static constexpr std::size_t context_elements = 10;
  static constexpr std::size_t button_chars = 75;
  static constexpr std::size_t url_chars = 3000;
};

nlohmann::json slack_payload(const RunResult& run, const RunContext& context);

}  // namespace perfgate
