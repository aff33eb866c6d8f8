#pragma once
// Writes a dashboard site: SITE/index.html (the one page; its views are hash routes, docs/
// dashboard.md), SITE/assets/ (dashboard/site_assets.h), SITE/data/index.js and one
// SITE/data/case/<key>.js and SITE/data/run/<key>.js per case and run (dashboard/site_model.h),
// each a script (dashboard/script_json.h), since fetch() of a file:// URL fails in Chromium.
// The site is built beside SITE and renamed into place, so a reader never sees half of one; a
// SITE that exists and is no dashboard's is refused, never overwritten, and so is a SITE that is a
// symbolic link (dangling or not).
#include <filesystem>
#include <functional>

#include "dashboard/site_model.h"

namespace perfgate {

struct SiteSummary {
  int cases = 0, runs = 0, items = 0;
  std::uintmax_t bytes = 0;
};

// Calls `build` with the sink the documents go through and returns what was written. Throws
// Error when the chart library was not built in, or SITE cannot be written.
SiteSummary write_site(const std::filesystem::path& site,
                       const std::function<nlohmann::json(const SiteDocumentSink&)>& build);

}  // namespace perfgate
