#include "core/utc_time.h"

#include <cctype>
#include <cstdio>

namespace perfgate {
namespace {

// The digits of text[at, at + n) as a number; nullopt where one is not a digit.
std::optional<int> digits(std::string_view text, std::size_t at, std::size_t n) {
  if (at + n > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && leap(year) ? 29 : kDays[month - 1];
}

// Days from 1970-01-01 to the date (proleptic Gregorian; Howard Hinnant's days_from_civil).
std::int64_t days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

std::optional<std::int64_t> parse_utc_time(std::string_view text) {
  const auto year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  const auto hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != ' ') || text[13] != ':' || text[16] != ':')
    return std::nullopt;
  if (*year < 1970 || *month < 1 || *month > 12 || *day < 1 || *day > days_in_month(*year, *month) ||
      *hour > 23 || *minute > 59 || *second > 60)
    return std::nullopt;
  std::size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    const std::size_t first = ++at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    if (at == first) return std::nullopt;
  }
  std::int64_t offset_s = 0;
  if (at + 1 == text.size() && text[at] == 'Z') {
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const bool colon = at + 6 == text.size() && text[at + 3] == ':';
    const auto oh = digits(text, at + 1, 2), om = digits(text, at + (colon ? 4 : 3), 2);
    if (!oh || !om || *oh > 23 || *om > 59 || (!colon && at + 5 != text.size())) return std::nullopt;
    offset_s = (text[at] == '+' ? 1 : -1) * (*oh * 3600 + *om * 60);
  } else {
    return std::nullopt;
  }
  return days_from_civil(*year, *month, *day) * 86400 + *hour * 3600 + *minute * 60 + *second - offset_s;
}

std::string utc_time_text(std::int64_t unix_s) {
  const std::time_t t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::optional<std::string> recorded_time_problem(std::string_view text, std::time_t now) {
  const auto at = parse_utc_time(text);
  if (!at)
    return "\"" + std::string(text.substr(0, 64)) + (text.size() > 64 ? "..." : "") +
           "\" is not an ISO 8601 UTC time (expected YYYY-MM-DDTHH:MM:SSZ)";
  if (*at > static_cast<std::int64_t>(now) + kClockSlackS)
    return std::string(text) + " is in the future (this machine's clock says " + utc_time_text(now) +
           "): a clock set wrong would reorder the history";
  return std::nullopt;
}

}  // namespace perfgate
