# Sourced by ci/install-web-deps.sh and ci/install-ci-lint.sh: installs the npm packages a
# committed package-lock.json pins into a folder outside the repository.
#
#   install_locked NAME LOCK_DIR DEST_DIR INSTALLED_FILE WHAT
#
# NAME prefixes its messages; LOCK_DIR holds package.json and package-lock.json; INSTALLED_FILE
# (relative to DEST_DIR) is present once they are installed; WHAT says what was installed.
# `npm ci` installs exactly the locked versions (integrity-checked) and runs no package scripts.
# Without npm or the registry it fails (exit 1).
install_locked() {
  local name=$1 lock_dir=$2 dir=$3 installed=$4 what=$5
  command -v npm >/dev/null 2>&1 || { echo "$name: npm not found (Debian: apt-get install npm)" >&2; exit 1; }
  mkdir -p "$dir"
  if cmp -s "$lock_dir/package-lock.json" "$dir/package-lock.json" && [ -e "$dir/$installed" ]; then
    echo "$name: $dir already holds $lock_dir/package-lock.json's packages"
    return 0
  fi
  cp "$lock_dir/package.json" "$lock_dir/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$name: $what in $dir"
}
