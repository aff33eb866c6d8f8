#pragma once
// The times perfgate records (a run's `started_at`, a candidate's `created_at`): ISO 8601 in UTC,
// as perfgate writes them ("2026-11-29T10:11:00Z"). A history is ordered by them, so a time that
// is not one, or lies in the future, would reorder its runs: refused where it is read or written.
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

// How far past this machine's clock a recorded time may lie (a runner's clock a little ahead).
constexpr std::int64_t kClockSlackS = 3600;

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SS" with optional fraction of a second, then "Z"
// or an offset "+HH:MM"/"-HH:MM" (Google Benchmark's `date`); a space may stand for the "T".
// nullopt for anything else, a field out of its range included (month 13, 30 February).
std::optional<std::int64_t> parse_utc_time(std::string_view text);

// The time as perfgate writes it: "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_time_text(std::int64_t unix_s);

// Why `text` is no recorded time at `now`: "'zzz' is not an ISO 8601 UTC time (...)", or
// "2099-01-01T00:00:00Z is in the future (this machine's clock says ...)"; nullopt when it is.
std::optional<std::string> recorded_time_problem(std::string_view text, std::time_t now);

}  // namespace perfgate
