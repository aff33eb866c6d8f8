#include "notify/config.h"

#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include "core/yaml_load.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

// A key or value of the config file as an error may show it: a name, a number or a word is
// shown; anything else may be the secret or the URL written where it does not belong.
std::string shown(const std::string& text) {
  const bool plain =
      !text.empty() && text.size() <= 24 && !text.starts_with("whsec_") &&
      std::all_of(text.begin(), text.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-';
      });
  return plain ? "'" + text + "'" : "(not shown: it may be a secret)";
}

PayloadFormat format_from(const std::string& value, const std::string& where) {
  if (value == "generic") return PayloadFormat::generic;
  if (value == "slack") return PayloadFormat::slack;
  throw Error(where + ": format must be generic or slack, not " + shown(value));
}

SendPolicy policy_from(const std::string& value, const std::string& where) {
  if (value == "regressions") return SendPolicy::regressions;
  if (value == "deltas") return SendPolicy::deltas;
  if (value == "always") return SendPolicy::always;
  throw Error(where + ": send must be regressions, deltas or always, not " + shown(value));
}

double positive_number(const std::string& value, const std::string& where) {
  char* end = nullptr;
  double number = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !(number > 0) || number > 3600)
    throw Error(where + ": expected a number of seconds in (0, 3600], not " + shown(value));
  return number;
}

int attempt_count(const std::string& value, const std::string& where) {
  char* end = nullptr;
  long number = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || number < 1 || number > 10)
    throw Error(where + ": expected an attempt count from 1 to 10, not " + shown(value));
  return static_cast<int>(number);
}

bool inside_git_work_tree(std::filesystem::path file) {
  std::error_code ec;
  file = std::filesystem::absolute(file, ec);
  for (auto dir = file.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::exists(dir / ".git", ec)) return true;
    if (dir == dir.root_path()) break;
  }
  return false;
}

// A webhook config is a dozen lines; anything near this is not one, and is refused unread.
constexpr std::uintmax_t kMaxConfigFileBytes = 64u << 10;

// The keys a config file may hold, as written in it.
const std::set<std::string> kFileKeys = {"url",       "secret",  "format",    "send",
                                         "ca_bundle", "outbox",  "timeout_s", "connect_timeout_s",
                                         "attempts",  "budget_s"};

std::map<std::string, std::string> read_config_file(const std::filesystem::path& file,
                                                    const std::function<void(const std::string&)>& warn) {
  const YAML::Node root = load_plain_yaml(read_bounded_file(file, kMaxConfigFileBytes), file.string());
  std::map<std::string, std::string> values;
  if (root.IsNull()) return values;
  if (!root.IsMap()) throw yaml_error(file.string(), root, "", "expected a mapping");
  for (const auto& entry : root) {
    std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "";
    if (!kFileKeys.count(key)) {
      // A secret or URL pasted where a key belongs must not reach the log.
      const bool plain = shown(key).starts_with("'");
      throw yaml_error(file.string(), entry.first, plain ? key : "",
                       std::string(plain ? "" : "an ") + "unknown key" +
                           (plain ? "" : " (not shown: it may be a secret)") +
                           " (expected url, secret, format, send, ca_bundle, outbox, timeout_s, "
                           "connect_timeout_s, attempts or budget_s)");
    }
    if (!entry.second.IsScalar()) throw yaml_error(file.string(), entry.first, key, "expected a value");
    if (values.count(key)) throw yaml_error(file.string(), entry.first, key, "given twice");
    values[key] = entry.second.as<std::string>();
  }
  if (values.count("secret") || values.count("url")) {
    if (inside_git_work_tree(file))
      warn(file.string() +
           " holds webhook credentials inside a git work tree: keep it outside the repository");
    struct stat info {};
    if (::stat(file.c_str(), &info) == 0 && (info.st_mode & 077) != 0)
      warn(file.string() + " holds webhook credentials and is readable by others: chmod 600 it");
  }
  return values;
}

std::filesystem::path default_outbox(const Environment& env) {
  if (auto cache = env("XDG_CACHE_HOME")) return std::filesystem::path(*cache) / "perfgate" / "outbox";
  if (auto home = env("HOME")) return std::filesystem::path(*home) / ".cache" / "perfgate" / "outbox";
  return std::filesystem::temp_directory_path() / "perfgate-outbox";
}

}  // namespace

std::string_view to_string(PayloadFormat format) {
  return format == PayloadFormat::slack ? "slack" : "generic";
}

std::string_view to_string(SendPolicy policy) {
  switch (policy) {
    case SendPolicy::regressions: return "regressions";
    case SendPolicy::deltas: return "deltas";
    case SendPolicy::always: return "always";
  }
  return "regressions";
}

Environment process_environment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

WebhookConfig load_webhook_config(const Environment& env,
                                  const std::function<void(const std::string&)>& warn) {
  std::map<std::string, std::string> file_values;
  std::string file_name;
  if (auto file = env("PERFGATE_WEBHOOK_CONFIG")) {
    file_name = *file;
    file_values = read_config_file(*file, warn);
  }
  // (value, where it came from) for a setting: the environment first, then the file.
  auto lookup = [&](const char* variable,
                    const char* key) -> std::optional<std::pair<std::string, std::string>> {
    if (auto value = env(variable)) return std::pair{*value, std::string(variable)};
    if (auto it = file_values.find(key); it != file_values.end() && !it->second.empty())
      return std::pair{it->second, file_name + ": " + key};
    return std::nullopt;
  };

  WebhookConfig config;
  if (auto url = lookup("PERFGATE_WEBHOOK_URL", "url")) {
    try {
      config.url = WebhookUrl::parse(url->first);
    } catch (const Error& e) {
      throw Error(url->second + ": " + e.what());
    }
    if (!config.url->is_https() && config.url->carries_token())
      warn(url->second + ": " + config.url->origin() +
           " is http://: its path and query (where a receiver keeps its token; not shown) are not "
           "encrypted on the way; use https://");
  }
  if (auto secret = lookup("PERFGATE_WEBHOOK_SECRET", "secret")) {
    config.secret = secret->first;
    // Accepted as base64 (the Standard Webhooks libraries accept it too), but most likely a
    // secret copied without its prefix or meant for another scheme.
    if (!config.secret.starts_with("whsec_"))
      warn(secret->second +
           ": the signing secret does not start with whsec_ (value not shown); using it as base64");
  }
  if (auto format = lookup("PERFGATE_WEBHOOK_FORMAT", "format"))
    config.format = format_from(format->first, format->second);
  if (auto send = lookup("PERFGATE_WEBHOOK_SEND", "send"))
    config.send = policy_from(send->first, send->second);
  if (auto ca = lookup("PERFGATE_WEBHOOK_CA_BUNDLE", "ca_bundle")) {
    config.ca_bundle = ca->first;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(config.ca_bundle, ec))
      throw Error(ca->second + ": CA bundle " + ca->first + " is not a readable file");
  }
  if (auto timeout = lookup("PERFGATE_WEBHOOK_TIMEOUT_S", "timeout_s"))
    config.timeout_s = positive_number(timeout->first, timeout->second);
  if (auto timeout = lookup("PERFGATE_WEBHOOK_CONNECT_TIMEOUT_S", "connect_timeout_s"))
    config.connect_timeout_s = positive_number(timeout->first, timeout->second);
  if (auto budget = lookup("PERFGATE_WEBHOOK_BUDGET_S", "budget_s"))
    config.budget_s = positive_number(budget->first, budget->second);
  if (auto attempts = lookup("PERFGATE_WEBHOOK_ATTEMPTS", "attempts"))
    config.attempts = attempt_count(attempts->first, attempts->second);
  if (auto outbox = lookup("PERFGATE_OUTBOX", "outbox"))
    config.outbox = outbox->first;
  else
    config.outbox = default_outbox(env);
  return config;
}

CiContext ci_context(const Environment& env) {
  CiContext ci;
  auto get = [&](const char* name) { return env(name).value_or(""); };
  if (auto server = env("GITHUB_SERVER_URL"), repo = env("GITHUB_REPOSITORY"), run = env("GITHUB_RUN_ID");
      server && repo && run) {
    ci.url = *server + "/" + *repo + "/actions/runs/" + *run;
    ci.commit = get("GITHUB_SHA");
    ci.branch = get("GITHUB_HEAD_REF");
    if (ci.branch.empty()) ci.branch = get("GITHUB_REF_NAME");
  } else if (auto job = env("CI_JOB_URL")) {  // GitLab
    ci.url = *job;
    ci.commit = get("CI_COMMIT_SHA");
    ci.branch = get("CI_COMMIT_REF_NAME");
  } else if (auto build = env("BUILD_URL")) {  // Jenkins
    ci.url = *build;
    ci.commit = get("GIT_COMMIT");
    ci.branch = get("GIT_BRANCH");
  }
  return ci;
}

}  // namespace perfgate
