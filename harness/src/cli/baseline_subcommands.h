#pragma once
// What the subcommands of `perfgate baseline` that change baselines/ (approve, drop) share.
#include <chrono>
#include <string>

#include "cli/commands.h"
#include "store/baseline_update.h"

namespace perfgate {

// The request with the time and commit of now; `note` goes to the log.
UpdateRequest update_request(const UpdateFlags& flags, const Context& context, std::string note);

// On a terminal (stdin), asks `question` and returns whether the answer was yes; off a terminal
// or with --yes, returns true without asking.
bool confirmed(const std::string& question, bool yes);

// Why --by or --reason cannot be recorded ("" when it can): both go into YAML and JSON Lines.
std::string utf8_problem(const std::string& text);

}  // namespace perfgate
