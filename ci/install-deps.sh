#!/usr/bin/env bash
# Installs every Debian 12 package perfgate's build, tests and CI need, then a shader compiler
# that knows the cooperative-matrix extensions (ci/install-shader-compiler.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
  cmake g++ ninja-build pkg-config git ccache
  libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libcurl4-openssl-dev libssl-dev
  libvulkan-dev glslc libspirv-cross-c-shared-dev mesa-vulkan-drivers vulkan-tools
  python3 chromium cmark-gfm
  libopenblas-dev  # benchmark only: perfgate_alternatives against sgemm (docs/performance.md)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
# npm installs the dashboard's and the CI lint's packages. Debian's npm conflicts with a nodejs
# that brings its own (NodeSource's, as on these machines), so it is asked for only where none is.
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Without it (no network, say) the build still succeeds and leaves the tensor-core shaders out.
ci/install-shader-compiler.sh || echo "install-deps: no shader compiler for the cooperative-matrix shaders: they are left out of the build" >&2
# What checks the shipped GitHub workflow against GitHub's schema (npm: action-validator); without
# it the test e2e/ci_recipes_valid says it cannot run.
ci/install-ci-lint.sh || echo "install-deps: no action-validator: the GitHub workflow is not checked against its schema" >&2
# The dashboard's chart library and its browser test's driver (npm); without them the build says so
# and `perfgate dashboard` refuses, naming this script.
ci/install-web-deps.sh || echo "install-deps: no npm packages (uPlot, playwright-core): the dashboard is left without its charts" >&2
