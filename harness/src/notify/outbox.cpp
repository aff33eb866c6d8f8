#include "notify/outbox.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/atomic_file.h"
#include "core/no_link.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kRejected = "rejected";

std::string serialize(const Alert& alert) {
  return json{{"id", alert.id},
              {"run_id", alert.run_id},
              {"created_at_ms", alert.created_at_ms},
              {"body", alert.body}}
             .dump(2) +
         "\n";
}

Alert deserialize(const std::string& text) {
  json j = json::parse(text);
  return {j.at("id"), j.value("run_id", ""), j.at("created_at_ms"), j.at("body")};
}

bool is_alert_file(const fs::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  return entry.is_regular_file() && name.starts_with("msg_") && name.ends_with(".json");
}

// Alerts in `dir`, oldest first; unreadable files are reported and skipped.
std::vector<Alert> read_alerts(const fs::path& dir, const std::function<void(const std::string&)>& warn) {
  std::vector<Alert> alerts;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_alert_file(*it)) continue;
    try {
      alerts.push_back(deserialize(read_file(it->path())));
    } catch (const std::exception& e) {
      warn(fmt::format("outbox: skipping unreadable {}: {}", it->path().string(), e.what()));
    }
  }
  std::sort(alerts.begin(), alerts.end(), [](const Alert& a, const Alert& b) {
    return a.created_at_ms != b.created_at_ms ? a.created_at_ms < b.created_at_ms : a.id < b.id;
  });
  return alerts;
}

std::vector<DroppedAlert> prune_dir(const fs::path& dir, const OutboxLimits& limits, std::int64_t now_unix,
                                    const std::function<void(const std::string&)>& warn) {
  std::vector<DroppedAlert> dropped;
  std::vector<Alert> alerts = read_alerts(dir, warn);
  const std::size_t excess = alerts.size() > limits.max_alerts ? alerts.size() - limits.max_alerts : 0;
  for (std::size_t i = 0; i < alerts.size(); ++i) {
    const std::int64_t age_s = now_unix - alerts[i].created_at_ms / 1000;
    std::string why;
    if (age_s > limits.max_age.count())
      why = fmt::format("older than {} days", limits.max_age.count() / 86400.0);
    else if (i < excess)
      why = fmt::format("over {} alerts", limits.max_alerts);
    else
      continue;
    std::error_code ec;
    fs::remove(dir / (alerts[i].id + ".json"), ec);
    dropped.push_back({alerts[i].id, age_s, why});
  }
  return dropped;
}

}  // namespace

Outbox::Outbox(fs::path dir, std::function<void(const std::string&)> warn)
    : dir_(std::move(dir)), warn_(std::move(warn)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw Error(dir_.string() + ": cannot create the outbox: " + ec.message());
}

Outbox::~Outbox() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing releases the flock
}

bool Outbox::lock(std::chrono::steady_clock::time_point deadline) {
  if (lock_fd_ >= 0) return true;
  const fs::path file = dir_ / ".lock";
  const int fd = open_no_link(file, O_RDWR | O_CREAT, 0600, "the outbox lock");
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      ::close(fd);
      throw Error(file.string() + ": cannot lock the outbox");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::close(fd);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  lock_fd_ = fd;
  return true;
}

void Outbox::put(const Alert& alert) { write_file_atomically(dir_ / (alert.id + ".json"), serialize(alert)); }

std::vector<Alert> Outbox::pending() const { return read_alerts(dir_, warn_); }

void Outbox::remove(const std::string& id) {
  std::error_code ec;
  fs::remove(dir_ / (id + ".json"), ec);
  if (ec) throw Error((dir_ / (id + ".json")).string() + ": cannot remove: " + ec.message());
}

fs::path Outbox::reject(const Alert& alert) {
  const fs::path target = dir_ / kRejected / (alert.id + ".json");
  write_file_atomically(target, serialize(alert));
  remove(alert.id);
  return target;
}

std::vector<DroppedAlert> Outbox::prune(const OutboxLimits& limits, std::int64_t now_unix) {
  std::vector<DroppedAlert> dropped = prune_dir(dir_, limits, now_unix, warn_);
  for (auto& d : prune_dir(dir_ / kRejected, limits, now_unix, warn_)) {
    d.id = std::string(kRejected) + "/" + d.id;
    dropped.push_back(std::move(d));
  }
  return dropped;
}

}  // namespace perfgate
