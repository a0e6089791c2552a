# syntax=docker/dockerfile:1
# Quire: multi-stage image of the Next.js standalone output, served by scripts/quire-server.cjs.
#   docker build -t quire .                                   # converts with a Gotenberg service (GOTENBERG_URL)
#   docker build --build-arg WITH_LIBREOFFICE=true -t quire . # local LibreOffice converter inside the image
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# NEXT_OUTPUT=standalone makes next.config.ts emit .next/standalone (server.js plus traced node_modules).
RUN NEXT_OUTPUT=standalone npm run build

# Quire's dladdr cache for soffice (native/dladdr-cache.c; copied always, preloaded only when LibreOffice is there).
FROM node:${NODE_VERSION}-bookworm-slim AS native
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
COPY native ./native
COPY scripts/build-native.mjs ./scripts/build-native.mjs
RUN node scripts/build-native.mjs && test -f build/native/libquire-dladdr-cache.so

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ARG WITH_LIBREOFFICE=false
# DejaVu fonts stamp non-Latin names into signed PDFs; LibreOffice (optional) converts DOCX/PPTX locally.
# PDFs are read and drawn in-process (MuPDF.js, WebAssembly): no PDF tools are installed. tini is the
# container's first process: a soffice killed mid-conversion (a time-out, a crash) leaves its office
# process to be reaped by process 1, which Node does not do.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core ca-certificates tini \
 && if [ "$WITH_LIBREOFFICE" = "true" ]; then \
      apt-get install -y --no-install-recommends libreoffice-writer-nogui libreoffice-impress-nogui python3-uno libjemalloc2 \
        fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea; \
    fi \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# NEXT_MANUAL_SIG_HANDLE: SIGTERM is Quire's graceful shutdown (lib/server/shutdown.ts), not Next.js's;
# give `docker stop` a time-out above SHUTDOWN_TIMEOUT_MS (25 s), e.g. `docker stop -t 30`.
# NODE_OPTIONS: V8's young generation kept at Node.js 20's size, as scripts/serve.sh does (docs/adr/0023).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=16 \
    NEXT_TELEMETRY_DISABLED=1 \
    NEXT_MANUAL_SIG_HANDLE=true \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    DATA_DIR=/app/data
RUN groupadd --system --gid 1001 quire \
 && useradd --system --uid 1001 --gid quire --home-dir /app quire \
 && mkdir -p /app/data \
 && chown quire:quire /app/data
COPY --from=build --chown=quire:quire /app/.next/standalone ./
# Quire's server (docs/adr/0025): Next.js's standalone output, with the REST API's handlers called directly.
COPY --from=build --chown=quire:quire /app/scripts/quire-server.cjs ./quire-server.cjs
COPY --from=build --chown=quire:quire /app/.next/static ./.next/static
COPY --from=build --chown=quire:quire /app/public ./public
# Read at run time from the working directory: migrations applied on start, the UNO helper.
COPY --from=build --chown=quire:quire /app/prisma/migrations ./prisma/migrations
COPY --from=build --chown=quire:quire /app/lib/pdf/uno_convert.py ./lib/pdf/uno_convert.py
COPY --from=native --chown=quire:quire /app/build/native ./build/native
USER quire
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The V8 flag and the server scripts/serve.sh gives node (docs/adr/0024, 0025).
CMD ["node", "--no-allocation-site-pretenuring", "quire-server.cjs"]
