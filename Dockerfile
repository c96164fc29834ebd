# sluice worker image (first draft). Used by docker-compose.yml's `worker` service.
FROM node:20-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so editing source does not invalidate this layer.
# tsx is a runtime dependency, so --omit=dev still lets the worker run from source.
COPY package.json package-lock.json ./
# The image's npm 10 ignores package.json's allowScripts: skip onnxruntime-node's CUDA download.
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY . .

# Local object store and temp files (config: SLUICE_DATA_DIR); mount a volume here.
RUN mkdir -p /data && chown node:node /data
ENV SLUICE_DATA_DIR=/data

USER node
CMD ["npx", "tsx", "worker/main.ts"]
