#!/usr/bin/env bash
# Checks the Helm chart (deploy/helm/sluice) with no cluster: deploy/helm/check renders it as
# `helm template` does, with helm's Go module (pinned in its go.mod), and decodes every object
# strictly into the Kubernetes API and KEDA Go types, so an unknown or misplaced field fails.
# Its tests first prove that deliberately wrong fields do fail. The first run fetches the
# modules through the Go module proxy; later runs reuse the module and build caches.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../deploy/helm"
go -C check test -count=1 .
go -C check run . "$PWD/sluice"
go -C check run . -f "$PWD/sluice/ci/production-values.yaml" "$PWD/sluice"
