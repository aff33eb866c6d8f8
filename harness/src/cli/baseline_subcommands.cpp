// What approve and drop share: who changes baselines/, when, at which commit, and the question
// asked on a terminal before they do.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/baseline_subcommands.h"
#include "cli/run_info.h"

namespace perfgate {

// --by and --reason go into the baseline files and the JSON Lines approval log: UTF-8 only.
std::string utf8_problem(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();
    return "";
  } catch (const nlohmann::json::type_error&) {
    return "is not valid UTF-8 text (check the terminal's or the CI's encoding)";
  }
}

UpdateRequest update_request(const UpdateFlags& flags, const Context& context, std::string note) {
  UpdateRequest request;
  request.by = flags.by;
  request.reason = flags.reason;
  request.at = utc_now_iso8601();
  request.commit = source_commit(context.project_dir);
  request.note = std::move(note);
  request.lock_timeout = std::chrono::milliseconds(static_cast<long long>(flags.lock_timeout_s * 1000));
  return request;
}

bool confirmed(const std::string& question, bool yes) {
  if (yes || !isatty(STDIN_FILENO)) return true;
  std::fprintf(stderr, "%s [y/N] ", question.c_str());
  std::fflush(stderr);
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer == "y" || answer == "Y" || answer == "yes";
}

}  // namespace perfgate
