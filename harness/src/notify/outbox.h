#pragma once
// Alerts not yet delivered, one JSON file per alert named "<alert id>.json", written
// atomically. Alerts the receiver refused move to "rejected/" (kept, never resent by itself).
// Both are bounded by count and age; what is dropped is returned so the caller can log it.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "notify/alert.h"

namespace perfgate {

struct OutboxLimits {
  std::size_t max_alerts = 100;
  std::chrono::seconds max_age{std::chrono::hours(24 * 14)};
};

struct DroppedAlert {
  std::string id;
  std::int64_t age_s = 0;
  std::string why;  // "older than 14 days", "over 100 alerts"
};

class Outbox {
 public:
  // Creates the folder when needed. `warn` hears about files that cannot be read.
  Outbox(std::filesystem::path dir, std::function<void(const std::string&)> warn);
  ~Outbox();
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // Holds an advisory lock on the folder until destruction, so two `perfgate notify` calls
  // on one machine do not send the same alert at once. Waits for it until `deadline`; false
  // when another process held it all that time.
  bool lock(std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

  void put(const Alert& alert);        // replaces an alert of the same id
  std::vector<Alert> pending() const;  // oldest first
  void remove(const std::string& id);
  std::filesystem::path reject(const Alert& alert);  // moves it to rejected/, returns where
  std::vector<DroppedAlert> prune(const OutboxLimits& limits, std::int64_t now_unix);

 private:
  std::filesystem::path dir_;
  std::function<void(const std::string&)> warn_;
  int lock_fd_ = -1;
};

}  // namespace perfgate
