# Multi-stage build: node builds the mini app, cargo builds the binary, a slim image runs it.
# Not built on the development machines (no Docker engine there): see README.
FROM node:22-bookworm-slim AS webapp
WORKDIR /src/webapp
COPY webapp/package.json webapp/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY webapp/ ./
RUN npm run build

FROM rust:1-bookworm AS server
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY bot/ bot/
COPY webapp-api/ webapp-api/
COPY data/migrations/ data/migrations/
RUN cargo build --release --locked -p fragbox

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /app fragbox
WORKDIR /app
COPY --from=server /src/target/release/fragbox /usr/local/bin/fragbox
COPY --from=webapp /src/webapp/dist ./webapp/dist
COPY data/catalog ./data/catalog
COPY data/legal ./data/legal
RUN mkdir -p /app/state && chown fragbox /app/state
USER fragbox
# Reachable from outside the container: serving needs TELEGRAM_BOT_TOKEN (and WEBAPP_URL);
# without one FragBox refuses to start instead of serving demo mode's free tokens. A deliberate
# public demo: -e DEMO_PUBLIC=true.
ENV BIND_ADDR=0.0.0.0:8080 \
    DATABASE_URL=sqlite:///app/state/fragbox.db \
    CATALOG_DIR=/app/data/catalog \
    CATALOG_IMAGES_DIR=/app/state/image-cache \
    WEBAPP_DIST=/app/webapp/dist \
    LEGAL_DIR=/app/data/legal
VOLUME ["/app/state"]
EXPOSE 8080
ENTRYPOINT ["fragbox"]
CMD ["serve"]
