#pragma once
// The files every dashboard site carries, embedded in the binary at build time
// (harness/embed_site_assets.cmake): the page (site/index.html), its script and style
// (site/dashboard.js, site/dashboard.css) and the chart library, uPlot, from the npm packages
// ci/install-web-deps.sh installs. Nothing is fetched when a site is viewed.
#include <span>
#include <string_view>

namespace perfgate {

struct SiteAsset {
  std::string_view path;  // relative to the site's folder, e.g. "assets/uPlot.iife.min.js"
  std::string_view content;
};

std::span<const SiteAsset> site_assets();

// Whether this binary was built with uPlot (CMake found ci/install-web-deps.sh's packages).
bool site_charts_bundled();

}  // namespace perfgate
