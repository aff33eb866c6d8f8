#include "dashboard/site_writer.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <system_error>

#include "dashboard/script_json.h"
#include "dashboard/site_assets.h"
#include "core/no_link.h"
#include "perfgate/error.h"

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// What marks a folder as a dashboard's, so a rebuild may replace it and nothing else.
constexpr const char* kMarker = ".perfgate-dashboard";

void write_text(const fs::path& file, std::string_view text, std::uintmax_t& bytes) {
  std::ofstream out(file, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw Error("dashboard: cannot write " + file.string());
  bytes += text.size();
}

}  // namespace

SiteSummary write_site(const fs::path& out,
                       const std::function<nlohmann::json(const SiteDocumentSink&)>& build) {
  // "site/" names the folder "site": what is built beside it must not land inside it.
  fs::path site = fs::absolute(out).lexically_normal();
  if (site.filename().empty()) site = site.parent_path();
  // The one rule for what perfgate writes (core/no_link.h): a SITE that is a link is refused, not
  // replaced by a folder of its own (which left the folder it named as it was, the site elsewhere).
  refuse_linked_folder(site, "dashboard: --out");
  if (!site_charts_bundled())
    throw Error(
        "dashboard: this perfgate was built without its chart library (uPlot): run ci/install-web-deps.sh, "
        "then "
        "configure and build again; no site written");
  if (fs::exists(site) && (!fs::is_directory(site) || (!fs::is_empty(site) && !fs::exists(site / kMarker))))
    throw Error("dashboard: --out " + out.string() +
                " exists and is not a site perfgate dashboard built; give an empty or new folder");
  const fs::path parent = site.parent_path();
  const fs::path staging = parent / (site.filename().string() + ".building-" + std::to_string(getpid()));
  std::error_code ec;
  fs::remove_all(staging, ec);
  fs::create_directories(staging / "data" / "case", ec);
  fs::create_directories(staging / "data" / "run", ec);
  fs::create_directories(staging / "assets", ec);
  if (ec) throw Error("dashboard: cannot create " + staging.string() + ": " + ec.message());

  SiteSummary summary;
  try {
    for (const SiteAsset& asset : site_assets())
      write_text(staging / asset.path, asset.content, summary.bytes);
    const nlohmann::json index =
        build([&](const std::string& kind, const std::string& key, const nlohmann::json& doc) {
          write_text(staging / "data" / kind / (key + ".js"), data_script(kind, key, doc), summary.bytes);
          ++(kind == "case" ? summary.cases : summary.runs);
        });
    summary.items = static_cast<int>(index["items"].size());
    write_text(staging / "data" / "index.js", data_script("index", "", index), summary.bytes);
    write_text(staging / kMarker, "Built by perfgate dashboard; rebuilding replaces this folder.\n",
               summary.bytes);
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  // Replace the old site: moved aside, the new one renamed in, the old one removed.
  const fs::path old = parent / (site.filename().string() + ".old-" + std::to_string(getpid()));
  if (fs::exists(site)) fs::rename(site, old, ec);
  if (!ec) fs::rename(staging, site, ec);
  if (ec) {
    fs::remove_all(staging);
    throw Error("dashboard: cannot put the site in place at " + site.string() + ": " + ec.message());
  }
  fs::remove_all(old, ec);
  return summary;
}

}  // namespace perfgate
