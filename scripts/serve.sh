#!/usr/bin/env bash
# Serves the built app (arguments: -p port, -H hostname): the last step of `npm start`, `npm run
# serve`, the servers of the tests and the bench (tests/support/quire-server.ts) and the bench's
# Next.js-alone floor, so all run on the same Node.js with the same V8 settings. The standalone Docker
# image starts the same quire-server.cjs with the same settings (Dockerfile).
set -euo pipefail
# Node.js 24's V8 lets the young generation grow to 128 MB under load where Node.js 20's stopped
# at 32 MB; 16 MB semi-spaces keep Node.js 20's size with no cost measured in CPU a request
# (docs/adr/0023). Prepended, so an operator's own NODE_OPTIONS comes later and wins.
export NODE_OPTIONS="--max-semi-space-size=16${NODE_OPTIONS:+ $NODE_OPTIONS}"
# V8's allocation-site pretenuring off (docs/adr/0024): under a steady load of lists, after the first
# full collection it allocated straight into the old generation, and full collections (a stall of the
# server each on two cores) came every 1-4 s instead of about every 20 s, at 0.2-0.3 ms more CPU a
# request. V8 allows that flag only on node's own command line, not in NODE_OPTIONS.
# The server is Quire's (scripts/quire-server.cjs: Next.js, with the REST API's handlers called directly,
# docs/adr/0025). `--next-start` first runs Next.js's own `next start` in the working directory instead:
# the bench's Next.js-alone floor.
server=("$(dirname "$0")/quire-server.cjs")
if [[ "${1:-}" == "--next-start" ]]; then
  shift
  server=("$(dirname "$0")/../node_modules/next/dist/bin/next" start)
fi
exec node --no-allocation-site-pretenuring "${server[@]}" "$@"
