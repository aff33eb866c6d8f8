// perfgate baseline: the only way into baselines/. propose measures a candidate, diff and show
// review it, approve moves it in under a person's name, drop retires cases.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/baseline_subcommands.h"
#include "cli/run_info.h"

namespace perfgate {

// --by and --reason go into the baseline files and the JSON Lines approval log: UTF-8 only.
const CLI::Validator kUtf8(
    [](std::string& text) -> std::string {
      try {
        (void)nlohmann::json(text).dump();
        return "";
      } catch (const nlohmann::json::type_error&) {
        return "is not valid UTF-8 text (check the terminal's or the CI's encoding)";
      }
    },
    "UTF-8");

void add_update_options(CLI::App& command, UpdateFlags& flags, const Context& context) {
  flags.baselines_dir = context.baselines_dir();
  command
      .add_option("--by", flags.by,
                  "Who approves (a person's name or login): recorded per case and in the log")
      ->required()
      ->check(kUtf8);
  command.add_option("--reason", flags.reason, "Why: recorded per case and in the log")
      ->required()
      ->check(kUtf8);
  command.add_flag("--yes,-y", flags.yes, "Do not ask for confirmation on a terminal");
  command.add_option("--baselines", flags.baselines_dir, "Approved baselines folder")->capture_default_str();
  command
      .add_option("--lock-timeout", flags.lock_timeout_s,
                  "Seconds to wait for another approval holding the folder's lock")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
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

void add_baseline_command(CLI::App& app, Context& context) {
  CLI::App* baseline = app.add_subcommand(
      "baseline",
      "Propose, review, approve and drop baselines: a new baseline enters baselines/ only when a "
      "named person approves it (docs/baselines.md)");
  baseline->require_subcommand(1);
  add_baseline_propose(*baseline, context);
  add_baseline_review(*baseline, context);
  add_baseline_approve(*baseline, context);
  add_baseline_drop(*baseline, context);
}

}  // namespace perfgate
