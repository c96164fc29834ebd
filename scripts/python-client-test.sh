#!/usr/bin/env bash
# The Python client test (issue 13): starts ingestions with the PyPI `temporalio` SDK against a
# sluice worker on the production profile (S3 object store, OpenSearch; Postgres vectors because
# no Qdrant runs here; the hashing embedder because no embedding provider is configured). The
# worker polls a task queue of its own and uses a database of its own, and is stopped at the end.
# Needs the stack (`bash scripts/stack.sh start`). Called by .ci/run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
eval "$(bash scripts/stack.sh env)"

venv=.sluice/python-venv
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
# pip's cache (~/.cache/pip) makes a re-run offline-fast; the versions are pinned.
"$venv/bin/pip" install --quiet --disable-pip-version-check -r test/python/requirements.txt

run_id="pyclient-$$-$RANDOM"
db_name="sluice_pyclient"
db_base="${DATABASE_URL%/*}"
psql "$db_base/postgres" -qtAc "select 1 from pg_database where datname = '$db_name'" | grep -q 1 ||
  psql "$db_base/postgres" -qc "create database $db_name"

data_dir=".sluice/$run_id"
mkdir -p "$data_dir"
export SLUICE_TASK_QUEUE="$run_id"
worker_log="$data_dir/worker.log"
DATABASE_URL="$db_base/$db_name" \
  SLUICE_PROFILE=production \
  SLUICE_OBJECT_STORE=s3 \
  SLUICE_VECTOR_STORE=postgres \
  SLUICE_KEYWORD_INDEX=opensearch \
  SLUICE_EMBEDDER=local \
  SLUICE_DATA_DIR="$data_dir" \
  SLUICE_SWEEP_EVERY=off \
  SLUICE_ORPHAN_SWEEP_EVERY=off \
  node --import tsx worker/main.ts >"$worker_log" 2>&1 &
worker_pid=$!
stop_worker() {
  local rc=$?
  kill "$worker_pid" 2>/dev/null || true
  wait "$worker_pid" 2>/dev/null || true
  if ((rc != 0)); then
    echo "python-client-test: FAILED; worker log tail:" >&2
    tail -n 60 "$worker_log" >&2 || true
  fi
  rm -rf "$data_dir"
  exit "$rc"
}
trap stop_worker EXIT

# Wait for the worker to poll (it migrates its database first); a worker that died fails here.
for _ in $(seq 1 120); do
  grep -q "sluice worker polling" "$worker_log" && break
  kill -0 "$worker_pid" 2>/dev/null || { echo "python-client-test: the worker exited" >&2; exit 1; }
  sleep 1
done
grep -q "sluice worker polling" "$worker_log" || { echo "python-client-test: the worker did not start polling in 120 s" >&2; exit 1; }

"$venv/bin/python" -m pytest -q test/python
