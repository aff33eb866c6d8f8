#include "report/next_steps.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "perfgate/run_summary.h"

namespace perfgate {
namespace {

std::string command_line(const std::string& program, std::vector<std::string> words) {
  std::string line = shell_word(program);
  for (const auto& w : words) line += " " + shell_word(w);
  return line;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

std::string shell_word(const std::string& arg) {
  const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](unsigned char c) {
    return std::isalnum(c) || std::string_view("_./=:,@%+-").find(char(c)) != std::string_view::npos;
  });
  if (plain) return arg;
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string render_next_steps(const RunResult& run, const InvocationArgs& how, bool machine_has_baselines) {
  const int missing = summarize_run(run).counts[Verdict::no_baseline];
  const std::string& machine = run.fingerprint.machine_id;
  if (missing == 0 || machine.empty()) return "";
  const std::string cases = std::to_string(missing) + (missing == 1 ? " case" : " cases");
  const std::string candidate = "candidate-" + machine + ".yaml";
  std::string out = "\n";
  out += machine_has_baselines
             ? cases + " measured with no baseline on " + machine + ": not judged.\n"
             : "No baselines for " + machine + " yet: " + cases + " measured, none judged.\n";
  out += "To gate them, measure a candidate (5 separate runs), review it, and approve it by name:\n";
  out +=
      "  " +
      command_line(how.program, joined(joined(joined({"baseline", "propose"}, how.selection), how.measuring),
                                       joined({"--out", candidate}, how.place))) +
      "\n";
  out += "  " + command_line(how.program, joined({"baseline", "approve", candidate}, how.place)) +
         " --by NAME --reason TEXT\n";
  out += "then commit " + how.baselines_dir + "/" + machine +
         "/; later runs on this machine judge against it.\n";
  out += "Or, on a shared runner, measure a change against its base build at the same moment:\n";
  out +=
      "  " +
      command_line(how.program, joined(joined(joined({"check"}, how.selection), how.measuring), how.place)) +
      " --base BUILD\n";
  return out;
}

}  // namespace perfgate
