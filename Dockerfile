# sluice worker image. Used by docker-compose.yml's `worker` service.
# Three stages: the build (dev dependencies, tsc, the workflow bundle), the production
# dependencies alone, and the runtime: compiled JavaScript on plain node, no TypeScript, no tsx,
# no webpack at start-up.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The image's npm 10 ignores package.json's allowScripts: skip onnxruntime-node's CUDA download.
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
COPY . .
# tsc to dist/, then the workflow bundle built from it (dist/workflow-bundle.js).
RUN npm run build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./

# Local object store and temp files (config: SLUICE_DATA_DIR); mount a volume here.
RUN mkdir -p /data && chown node:node /data
ENV SLUICE_DATA_DIR=/data

USER node
# node itself as PID 1's child (compose sets init: true): SIGTERM reaches the worker, which hands
# its running activities back within a second (worker/createWorker.ts SHUTDOWN_GRACE_TIME).
CMD ["node", "dist/worker/main.js"]
