#pragma once
// JSON as the dashboard's data files carry it: inside a <script> (a file loaded by a script tag,
// since fetch() of a file:// URL fails in Chromium). Every string a history, a log or a baseline
// holds may be hostile: `<` (so no "</script>" or "<!--" closes or changes the script), `>`, `&`
// and U+2028/U+2029 (line ends to older JavaScript) are written as \u escapes; control
// characters are escaped by the JSON writer, and bytes that are not UTF-8 become U+FFFD.
#include <nlohmann/json.hpp>
#include <string>

namespace perfgate {

std::string script_safe_json(const nlohmann::json& value);

// `perfgateData("<kind>", "<key>", <json>);`: one data file's whole text.
std::string data_script(const std::string& kind, const std::string& key, const nlohmann::json& value);

}  // namespace perfgate
