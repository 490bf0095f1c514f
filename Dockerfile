# SPDX-License-Identifier: MIT
# puzzled: a puzzle-solving HTTP service. Three stages: a web stage bundles
# the playground page with Node.js, a build stage compiles a Release binary
# and runs the solver library's tests; the runtime stage holds only the
# binary, the page's files, the shared libraries and a non-root user.
#
#   docker build -t puzzled .
#   docker run --rm -p 127.0.0.1:8080:8080 puzzled
#
# Configuration is through PUZZLED_* variables only (README, "HTTP service").
# docs/container.md covers volumes, read-only root, compose and the load
# balancer.

# The playground page: Debian's Node.js and npm bundle web/ with the
# packages of its lockfile; only the bundled files go on.
FROM debian:bookworm-slim AS web
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        nodejs npm ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY web/build.mjs ./
COPY web/src/ src/
RUN node build.mjs /out/web

FROM debian:bookworm-slim AS build

# The -dev packages of scripts/setup, minus the formatting and client tools.
# libcurl is only needed because CMake configures the HTTP tests too.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        build-essential cmake pkg-config \
        libmicrohttpd-dev libcjson-dev libuv1-dev libhiredis-dev \
        check libsubunit-dev libcurl4-openssl-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Only what the build reads, so editing docs or docker/ keeps the compile
# layers cached.
COPY CMakeLists.txt openapi.yaml ./
COPY solver/ solver/
COPY api/ api/
COPY server/ server/
COPY cli/ cli/
COPY bench/ bench/
COPY tests/ tests/

# Release build without the benchmarks. CK_TIMEOUT_MULTIPLIER gives the
# search tests slack on slow or emulated builders.
RUN CK_TIMEOUT_MULTIPLIER=4 cmake -S . -B build \
        -DCMAKE_BUILD_TYPE=Release -DPZ_BUILD_BENCH=OFF \
    && cmake --build build -j"$(nproc)"

# The solver library's tests (core, puzzles, engines, golden cases): every
# ctest entry except the CLI, request/API and HTTP tests, the checks of the
# source tree (man page, layers: scripts/ and docs/ are not copied) and
# anything labelled slow. A failure stops the image build.
RUN cd build && ctest --output-on-failure -j"$(nproc)" \
        -E '^(cli|api_.*|server_.*|manpage|layers)$' -LE slow

# Lay out the runtime files under /out. The complete tables of the small
# puzzles (a few MB) are built here, into the image, when this version has
# `puzzled tables`; the 3x3x3 two-phase tables are built into the table
# volume at the first start, and the pattern databases ahead of time with
# `puzzled tables build --all` (or by a daemon run with
# PUZZLED_TABLE_BUILDS=on-demand; docs/container.md).
ARG PUZZLED_IMAGE_TABLES="8-puzzle 2x2x2 pyraminx skewb"
COPY docker/entrypoint docker/healthcheck docker/
RUN install -D -m 0755 -s build/puzzled /out/usr/local/bin/puzzled \
    && install -m 0755 docker/entrypoint /out/usr/local/bin/puzzled-entrypoint \
    && install -m 0755 docker/healthcheck /out/usr/local/bin/puzzled-healthcheck \
    && mkdir -p /out/usr/share/puzzled/tables \
    && if /out/usr/local/bin/puzzled tables list >/dev/null 2>&1; then \
        PUZZLED_TABLES=/out/usr/share/puzzled/tables \
            /out/usr/local/bin/puzzled tables build $PUZZLED_IMAGE_TABLES \
        && chmod -R a+rX /out/usr/share/puzzled/tables; \
    else \
        echo "this version has no 'puzzled tables': no tables in the image"; \
    fi

FROM debian:bookworm-slim

# Runtime libraries only; no compiler, no curl (the health check speaks
# HTTP through bash).
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libcjson1 libmicrohttpd12 libuv1 libhiredis0.14 \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
    && groupadd --gid 10001 puzzled \
    && useradd --uid 10001 --gid 10001 --no-create-home --no-log-init \
        --home-dir /nonexistent --shell /usr/sbin/nologin puzzled \
    && mkdir -p /var/lib/puzzled/tables \
    && chown puzzled:puzzled /var/lib/puzzled/tables

COPY --from=build /out/ /
# Beside the binary's share/ directory, where the daemon looks for it.
COPY --from=web /out/web/ /usr/local/share/puzzled/web/

# The daemon binds 127.0.0.1 by default; in a container it must listen on
# all interfaces. Logs are JSON lines on stderr.
ENV PUZZLED_BIND=0.0.0.0 \
    PUZZLED_PORT=8080 \
    PUZZLED_TABLES=/var/lib/puzzled/tables

# Large tables are built on first use and kept across restarts here.
VOLUME ["/var/lib/puzzled/tables"]

USER 10001:10001
EXPOSE 8080
STOPSIGNAL SIGTERM
# The daemon answers within a second of starting, so no start period.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
    CMD ["/usr/local/bin/puzzled-healthcheck"]
ENTRYPOINT ["/usr/local/bin/puzzled-entrypoint"]
CMD ["serve"]
