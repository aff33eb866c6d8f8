#include "report/html_page.h"

#include <fmt/format.h>

#include "report/xml_escape.h"

namespace perfgate {
namespace {

constexpr const char* kStyle = R"(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; margin: 0; background: #f4f5f7; }
main { max-width: 1840px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 10px; border-bottom: 1px solid #d0d4da; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 16px 0 6px; font-family: ui-monospace, monospace; }
.meta { color: #555; margin: 2px 0; }
code, .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
nav a { margin-right: 14px; color: #1565c0; text-decoration: none; }
.counts { margin: 14px 0; }
.chip { display: inline-block; white-space: nowrap; padding: 2px 10px; border-radius: 12px; color: #fff; font-weight: 600; margin-right: 6px; }
.v-pass { background: #2e7d32; } .v-improved { background: #00838f; } .v-regressed { background: #c62828; }
.v-error { background: #6a1b9a; } .v-inconclusive { background: #ef6c00; } .v-no-baseline { background: #546e7a; }
.v-skipped { background: #9e9e9e; }
table { border-collapse: collapse; background: #fff; box-shadow: 0 1px 2px rgba(0,0,0,.08); }
th, td { padding: 5px 10px; border-bottom: 1px solid #e6e8eb; text-align: left; vertical-align: top; }
th { background: #eceff3; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.row-regressed td, tr.row-error td { background: #fdecea; }
tr.row-improved td { background: #e6f4f5; }
.worse { color: #c62828; font-weight: 600; } .better { color: #00838f; font-weight: 600; }
.note { color: #555; font-size: 12px; min-width: 300px; max-width: 520px; }
table.verdicts td, table.verdicts th { padding: 4px 7px; white-space: nowrap; }
td.why { white-space: normal; font-size: 12px; color: #555; }
td.why summary { cursor: pointer; color: #36c; }
td.why details[open] div { white-space: normal; min-width: 260px; max-width: 420px; padding-top: 2px; }
td.id { white-space: nowrap; }
.wide { overflow-x: auto; }
figure { display: inline-block; margin: 0 16px 16px 0; background: #fff; padding: 8px; box-shadow: 0 1px 2px rgba(0,0,0,.08); vertical-align: top; }
figcaption { font-size: 13px; margin-bottom: 4px; }
.bar { display: inline-block; height: 10px; background: #1565c0; vertical-align: middle; }
.bottleneck td { font-weight: 600; }
.empty { color: #777; font-style: italic; }
dl.machine { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 8px 0; }
dl.machine dt { color: #555; } dl.machine dd { margin: 0; }
td.cell { white-space: nowrap; } td.missing { color: #999; }
footer { color: #777; font-size: 12px; margin-top: 40px; }
)";

}  // namespace

std::string html_page(const std::string& title, const std::string& body,
                      const std::string& perfgate_version) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // An empty icon: the browser would otherwise look for /favicon.ico.
  out += "<link rel=\"icon\" href=\"data:,\">\n";
  out += "<title>" + xml_escape(title) + "</title>\n";
  out += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n<main>\n" + body;
  out += "<footer>perfgate " + xml_escape(perfgate_version) + "</footer>\n</main>\n</body>\n</html>\n";
  return out;
}

std::string verdict_chip(Verdict verdict) {
  return fmt::format("<span class=\"chip v-{0}\">{0}</span>", to_string(verdict));
}

std::string verdict_counts(const std::vector<std::pair<Verdict, int>>& counts) {
  std::string out = "<div class=\"counts\">";
  for (const auto& [verdict, n] : counts)
    out += fmt::format("<span class=\"chip v-{}\">{} {}</span>", to_string(verdict), n, to_string(verdict));
  if (counts.empty()) out += "<span class=\"empty\">no cases</span>";
  return out + "</div>\n";
}

}  // namespace perfgate
