#!/usr/bin/env bash
# Installs the locked Node packages. `npm ci` first; if it refuses the lockfile because this
# registry mirror lacks other platforms' optional binaries (e.g. @next/swc-darwin-arm64, which npm
# then cannot record), fall back to `npm install`, which resolves the same locked versions.
set -uo pipefail
cd "$(dirname "$0")/.."

# The lockfile pins Quire's Node.js as optional packages for Linux on x64 and arm64 (docs/adr/0023);
# npm links the one for this machine as node_modules/.bin/node, first on PATH in every npm script.
# A build that cannot run here (musl libc, an old glibc) is unlinked, so the system's Node.js serves.
check_pinned_node() {
  local pinned=node_modules/.bin/node
  [ -e "$pinned" ] || return 0
  if ! "$pinned" --version >/dev/null 2>&1; then
    echo "The pinned Node.js does not run on this machine; using $(command -v node) ($(node --version)) instead." >&2
    rm -f "$pinned"
  fi
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if npm ci --no-audit --no-fund 2>"$log"; then
  :
elif grep -q "Missing: .* from lock file" "$log"; then
  echo "npm ci: the lockfile lacks optional packages for other platforms; using npm install instead." >&2
  npm install --no-audit --no-fund || exit 1
else
  cat "$log" >&2
  exit 1
fi
check_pinned_node
