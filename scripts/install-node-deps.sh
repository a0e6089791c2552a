#!/usr/bin/env bash
# Installs the locked Node packages. `npm ci` first; if it refuses the lockfile because this
# registry mirror lacks other platforms' optional binaries (e.g. @next/swc-darwin-arm64, which npm
# then cannot record), fall back to `npm install`, which resolves the same locked versions.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
if npm ci --no-audit --no-fund 2>"$log"; then
  rm -f "$log"
  exit 0
fi
if grep -q "Missing: .* from lock file" "$log"; then
  echo "npm ci: the lockfile lacks optional packages for other platforms; using npm install instead." >&2
  rm -f "$log"
  exec npm install --no-audit --no-fund
fi
cat "$log" >&2
rm -f "$log"
exit 1
