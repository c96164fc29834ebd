#!/usr/bin/env bash
# Checks docker-compose.yml with compose-go (the loader `docker compose` uses:
# the compose specification's JSON Schema, interpolation, depends_on and
# config/volume references). No Docker engine runs in CI, so `docker compose
# config` is not available; `go run` fetches compose-go once through the Go
# module proxy and reuses the module and build caches afterwards.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
file="${1:-$PWD/docker-compose.yml}"
# The worker requires SLUICE_SECRET_KEY (`:?` fails the load without it); a
# placeholder checks the rest of the file, and an unset key still fails at `up`.
SLUICE_SECRET_KEY="${SLUICE_SECRET_KEY:-compose-check-placeholder}" \
  go -C infra/compose-check run . "$(realpath "$file")"
