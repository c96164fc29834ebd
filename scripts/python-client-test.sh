#!/usr/bin/env bash
# The Python client test: starts ingestions with the PyPI `temporalio` SDK against a
# sluice worker on the production profile (S3 object store, OpenSearch; Postgres vectors because
# no Qdrant runs here; the hashing embedder because no embedding provider is configured). The
# worker polls a task queue of its own and uses a database of its own, and is stopped at the end.
# Both sides connect to Temporal the same way, through the standard TEMPORAL_* settings or a
# temporal.toml profile (Temporal's env-config, in the TypeScript and the Python SDK alike), and the
# test runs twice: on the dev server (TEMPORAL_ADDRESS from the stack's env), then through mTLS on
# the stack's temporal-tls cluster (a temporal.toml profile naming its client certificate).
# Needs the stack (`bash scripts/stack.sh start`). Called by .ci/run.
# With --deps-only it installs the venv and stops (.ci/run does that while the jest tiers run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv=.sluice/python-venv
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
# pip's cache (~/.cache/pip) makes a re-run offline-fast; the versions are pinned.
"$venv/bin/pip" install --quiet --disable-pip-version-check -r test/python/requirements.txt
[[ "${1:-}" == --deps-only ]] && exit 0
eval "$(bash scripts/stack.sh env)"

run_id="pyclient-$$-$RANDOM"
db_name="sluice_pyclient"
db_base="${DATABASE_URL%/*}"
psql "$db_base/postgres" -qtAc "select 1 from pg_database where datname = '$db_name'" | grep -q 1 ||
  psql "$db_base/postgres" -qc "create database $db_name"

data_dir=".sluice/$run_id"
mkdir -p "$data_dir"
worker_pid=""
worker_log=""
stop_worker() {
  if [[ -n "$worker_pid" ]]; then
    kill "$worker_pid" 2>/dev/null || true
    wait "$worker_pid" 2>/dev/null || true
    worker_pid=""
  fi
}
on_exit() {
  local rc=$?
  stop_worker
  if ((rc != 0)) && [[ -n "$worker_log" ]]; then
    echo "python-client-test: FAILED; worker log tail ($worker_log):" >&2
    tail -n 60 "$worker_log" >&2 || true
  fi
  rm -rf "$data_dir"
  exit "$rc"
}
trap on_exit EXIT

# One run: a worker and the Python tests, both connecting with the Temporal settings of the
# caller's environment, on a task queue of their own.
run_on() {
  local target="$1"
  export SLUICE_TASK_QUEUE="$run_id-$target"
  worker_log="$data_dir/worker-$target.log"
  DATABASE_URL="$db_base/$db_name" \
    SLUICE_PROFILE=production \
    SLUICE_OBJECT_STORE=s3 \
    SLUICE_VECTOR_STORE=postgres \
    SLUICE_KEYWORD_INDEX=opensearch \
    SLUICE_EMBEDDER=local \
    SLUICE_DATA_DIR="$data_dir/$target" \
    SLUICE_SWEEP_EVERY=off \
    SLUICE_ORPHAN_SWEEP_EVERY=off \
    node --import tsx worker/main.ts >"$worker_log" 2>&1 &
  worker_pid=$!
  # Wait for the worker to poll (it migrates its database first); a worker that died fails here.
  for _ in $(seq 1 120); do
    grep -q "sluice worker polling" "$worker_log" && break
    kill -0 "$worker_pid" 2>/dev/null || { echo "python-client-test: the worker ($target) exited" >&2; exit 1; }
    sleep 1
  done
  grep -q "sluice worker polling" "$worker_log" ||
    { echo "python-client-test: the worker ($target) did not start polling in 120 s" >&2; exit 1; }
  echo "python-client-test: $target"
  "$venv/bin/python" -m pytest -q test/python
  stop_worker
}

# The dev server: the stack's TEMPORAL_ADDRESS, namespace default, no TLS.
run_on dev

# The mTLS cluster through a temporal.toml profile, as a deployment would name it; the stack's
# TEMPORAL_ADDRESS is unset (the last run: nothing after it needs it) because a variable
# overrides the profile's value.
pki="$SLUICE_TEMPORAL_TLS_PKI"
cat >"$data_dir/temporal.toml" <<TOML
[profile.tls]
address = "$SLUICE_TEMPORAL_TLS_ADDRESS"
namespace = "$SLUICE_TEMPORAL_TLS_NAMESPACE"
[profile.tls.tls]
client_cert_path = "$pki/client.pem"
client_key_path = "$pki/client.key"
server_ca_cert_path = "$pki/ca.pem"
server_name = "localhost"
TOML
unset TEMPORAL_ADDRESS TEMPORAL_NAMESPACE
export TEMPORAL_CONFIG_FILE="$PWD/$data_dir/temporal.toml" TEMPORAL_PROFILE=tls
run_on tls
