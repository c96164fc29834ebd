# shellcheck shell=bash
# temporal-tls for scripts/stack.sh: a real Temporal cluster next to the dev server, the
# production adapter of docs/design.md §6's workflow engine. The server is built from its Go module
# (cached like SeaweedFS), runs on PostgreSQL persistence (two databases on the stack's Postgres,
# schemas set up by temporal-sql-tool) and serves its frontend with mTLS from a CA generated here.
# All four services in one process, on 127.0.0.1. Sourced after lib.sh, temporal.sh, postgres.sh.

SLUICE_TEMPORAL_TLS_PORT="${SLUICE_TEMPORAL_TLS_PORT:-7633}"
TEMPORAL_TLS_NAMESPACE="sluice"

# Pinned. v1.32.2 needs Go 1.26.10; the machine has 1.26.8, which v1.32.1 accepts.
TEMPORAL_SERVER_MODULE="go.temporal.io/server"
TEMPORAL_SERVER_VERSION="v1.32.1"

TEMPORAL_TLS_SERVER_BIN="$SLUICE_DATA_DIR/bin/temporal-server"
TEMPORAL_TLS_SQL_TOOL="$SLUICE_DATA_DIR/bin/temporal-sql-tool"
TEMPORAL_TLS_BUILD_DIR="$SLUICE_DATA_DIR/build/temporal-cluster"
TEMPORAL_TLS_DIR="$SLUICE_DATA_DIR/temporal-tls"
TEMPORAL_TLS_PKI="$TEMPORAL_TLS_DIR/pki"
TEMPORAL_TLS_SCHEMA="$TEMPORAL_TLS_DIR/schema"
TEMPORAL_TLS_CONFIG="$TEMPORAL_TLS_DIR/config.yaml"
TEMPORAL_TLS_PIDFILE="$STACK_RUN_DIR/temporal-tls.pid"
TEMPORAL_TLS_LOG="$STACK_LOG_DIR/temporal-tls.log"
TEMPORAL_TLS_ADDR="127.0.0.1:$SLUICE_TEMPORAL_TLS_PORT"
TEMPORAL_TLS_DB="temporal_tls"
TEMPORAL_TLS_VISIBILITY_DB="temporal_tls_visibility"

# Each service's gRPC and membership port, all named here: frontend on the port itself.
temporal_tls_ports() {
  local p="$SLUICE_TEMPORAL_TLS_PORT"
  printf '%s\n' "$p" "$((p + 1))" "$((p + 2))" "$((p + 6))" "$((p + 10))" "$((p - 700))" "$((p - 699))" "$((p - 698))" "$((p - 694))"
}

temporal_tls_binary_current() {
  local bin="$1"
  [[ -x "$bin" ]] || return 1
  command -v go >/dev/null 2>&1 || return 0
  go version -m "$bin" 2>/dev/null \
    | grep -Eq "^[[:space:]]+(mod|dep)[[:space:]]+${TEMPORAL_SERVER_MODULE}[[:space:]]+${TEMPORAL_SERVER_VERSION}([[:space:]]|$)"
}

temporal-tls_install() {
  command -v openssl >/dev/null 2>&1 || die "temporal-tls: openssl is required to make its CA (apt-get install openssl)"
  if ! temporal_tls_binary_current "$TEMPORAL_TLS_SERVER_BIN" || ! temporal_tls_binary_current "$TEMPORAL_TLS_SQL_TOOL"; then
    command -v go >/dev/null 2>&1 \
      || die "temporal-tls: Go is needed once to build the Temporal server $TEMPORAL_SERVER_VERSION (install Go 1.26+)"
    say "temporal-tls: building the Temporal server $TEMPORAL_SERVER_VERSION and temporal-sql-tool with Go (long the first time)"
    mkdir -p "$TEMPORAL_TLS_BUILD_DIR" "$(dirname "$TEMPORAL_TLS_SERVER_BIN")"
    printf 'module sluice.local/temporalbuild\n\ngo 1.26\n' >"$TEMPORAL_TLS_BUILD_DIR/go.mod"
    rm -f "$TEMPORAL_TLS_BUILD_DIR/go.sum"
    # One `go build` for both binaries: their packages compile once and the two links run side by
    # side. Built into out/, then renamed: an interrupted build never looks installed.
    if ! (cd "$TEMPORAL_TLS_BUILD_DIR" \
      && go get "$TEMPORAL_SERVER_MODULE/cmd/server@$TEMPORAL_SERVER_VERSION" "$TEMPORAL_SERVER_MODULE/cmd/tools/sql@$TEMPORAL_SERVER_VERSION" \
      && rm -rf out && mkdir out \
      && nice -n 10 go build -buildvcs=false -trimpath -o out/ "$TEMPORAL_SERVER_MODULE/cmd/server" "$TEMPORAL_SERVER_MODULE/cmd/tools/sql") \
      >>"$STACK_INSTALL_LOG" 2>&1; then
      die "temporal-tls: building the Temporal server failed (details in $STACK_INSTALL_LOG)"
    fi
    mv -f "$TEMPORAL_TLS_BUILD_DIR/out/server" "$TEMPORAL_TLS_SERVER_BIN"
    mv -f "$TEMPORAL_TLS_BUILD_DIR/out/sql" "$TEMPORAL_TLS_SQL_TOOL"
  fi
  # The SQL schemas ship in the module, not in the binaries: kept beside the data.
  if [[ ! -f "$TEMPORAL_TLS_SCHEMA/$TEMPORAL_SERVER_VERSION" ]]; then
    local src
    src="$(cd "$TEMPORAL_TLS_BUILD_DIR" && go list -m -f '{{.Dir}}' "$TEMPORAL_SERVER_MODULE")" \
      || die "temporal-tls: cannot locate the $TEMPORAL_SERVER_MODULE module's schema directory"
    rm -rf "$TEMPORAL_TLS_SCHEMA" && mkdir -p "$TEMPORAL_TLS_SCHEMA"
    cp -r "$src/schema/postgresql/v12/." "$TEMPORAL_TLS_SCHEMA/" && chmod -R u+w "$TEMPORAL_TLS_SCHEMA"
    touch "$TEMPORAL_TLS_SCHEMA/$TEMPORAL_SERVER_VERSION"
  fi
  temporal_tls_make_pki
}

# A CA, the frontend's certificate (localhost, 127.0.0.1), one for the system worker that reaches
# the frontend from inside the server, and one for sluice's processes. Made once, kept.
temporal_tls_make_pki() {
  [[ -f "$TEMPORAL_TLS_PKI/client.pem" ]] && return 0
  mkdir -p "$TEMPORAL_TLS_PKI"
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes) name
  (
    cd "$TEMPORAL_TLS_PKI"
    openssl req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 3650 -subj "/CN=sluice stack CA" \
      -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n' >server.ext
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    for name in server system-worker client; do
      openssl req "${ec[@]}" -keyout "$name.key" -out "$name.csr" -subj "/CN=sluice-$name"
      openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 \
        -extfile "$([[ $name == server ]] && echo server.ext || echo client.ext)" -out "$name.pem"
    done
    chmod 600 ./*.key
  ) >>"$STACK_INSTALL_LOG" 2>&1 || die "temporal-tls: making the CA failed (details in $STACK_INSTALL_LOG)"
}

temporal_tls_running() {
  pidfile_alive "$TEMPORAL_TLS_PIDFILE" "$TEMPORAL_TLS_CONFIG"
}

temporal-tls_preflight() {
  temporal_tls_running && return 0
  local port
  for port in $(temporal_tls_ports); do
    port_in_use "$port" && die "port $port is already in use; stop it or set SLUICE_TEMPORAL_TLS_PORT (ports around it are used too)"
  done
  return 0
}

temporal_tls_sql() {
  "$TEMPORAL_TLS_SQL_TOOL" --plugin postgres12 --ep 127.0.0.1 -p "$SLUICE_PG_PORT" -u postgres "$@"
}

# Idempotent: create-database ignores an existing one only with its own check, so ask psql first.
temporal_tls_setup_schema() {
  local db dir
  for db in "$TEMPORAL_TLS_DB" "$TEMPORAL_TLS_VISIBILITY_DB"; do
    dir=temporal
    [[ "$db" == "$TEMPORAL_TLS_VISIBILITY_DB" ]] && dir=visibility
    if [[ -z "$(pg_psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]]; then
      temporal_tls_sql --db "$db" create-database >>"$TEMPORAL_TLS_LOG" 2>&1 || die "temporal-tls: cannot create database $db"
      temporal_tls_sql --db "$db" setup-schema -v 0.0 >>"$TEMPORAL_TLS_LOG" 2>&1 || die "temporal-tls: setup-schema $db failed"
    fi
    temporal_tls_sql --db "$db" update-schema -d "$TEMPORAL_TLS_SCHEMA/$dir/versioned" >>"$TEMPORAL_TLS_LOG" 2>&1 \
      || die "temporal-tls: update-schema $db failed (see $TEMPORAL_TLS_LOG)"
  done
}

temporal_tls_write_config() {
  local p="$SLUICE_TEMPORAL_TLS_PORT" pki="$TEMPORAL_TLS_PKI" db name
  mkdir -p "$TEMPORAL_TLS_DIR"
  {
    printf 'log:\n  stdout: true\n  level: warn\n'
    printf 'persistence:\n  defaultStore: default\n  visibilityStore: visibility\n  numHistoryShards: 4\n  datastores:\n'
    for name in default visibility; do
      db="$TEMPORAL_TLS_DB"
      [[ "$name" == visibility ]] && db="$TEMPORAL_TLS_VISIBILITY_DB"
      printf '    %s:\n      sql:\n        pluginName: postgres12\n        databaseName: %s\n' "$name" "$db"
      printf '        connectAddr: "127.0.0.1:%s"\n        connectProtocol: tcp\n        user: postgres\n        maxConns: 10\n        maxIdleConns: 10\n' "$SLUICE_PG_PORT"
    done
    # mTLS on the frontend only: the services reach each other inside this one process.
    printf 'global:\n  membership:\n    maxJoinDuration: 30s\n    broadcastAddress: 127.0.0.1\n'
    printf '  tls:\n    frontend:\n      server:\n        certFile: %s/server.pem\n        keyFile: %s/server.key\n' "$pki" "$pki"
    printf '        requireClientAuth: true\n        clientCaFiles: [%s/ca.pem]\n' "$pki"
    printf '      client:\n        serverName: localhost\n        rootCaFiles: [%s/ca.pem]\n' "$pki"
    printf '    systemWorker:\n      certFile: %s/system-worker.pem\n      keyFile: %s/system-worker.key\n' "$pki" "$pki"
    printf '      client:\n        serverName: localhost\n        rootCaFiles: [%s/ca.pem]\n' "$pki"
    printf 'services:\n'
    printf '  frontend:\n    rpc: {grpcPort: %s, membershipPort: %s, bindOnLocalHost: true, httpPort: %s}\n' "$p" "$((p - 700))" "$((p + 10))"
    printf '  history:\n    rpc: {grpcPort: %s, membershipPort: %s, bindOnLocalHost: true}\n' "$((p + 1))" "$((p - 699))"
    printf '  matching:\n    rpc: {grpcPort: %s, membershipPort: %s, bindOnLocalHost: true}\n' "$((p + 2))" "$((p - 698))"
    printf '  worker:\n    rpc: {grpcPort: %s, membershipPort: %s, bindOnLocalHost: true}\n' "$((p + 6))" "$((p - 694))"
    printf 'clusterMetadata:\n  enableGlobalNamespace: false\n  failoverVersionIncrement: 10\n'
    printf '  masterClusterName: active\n  currentClusterName: active\n  clusterInformation:\n'
    printf '    active:\n      enabled: true\n      initialFailoverVersion: 1\n      rpcName: frontend\n      rpcAddress: "localhost:%s"\n' "$p"
    printf 'dcRedirectionPolicy:\n  policy: noop\n'
  } >"$TEMPORAL_TLS_CONFIG"
}

temporal-tls_start() {
  if temporal_tls_running; then
    say "temporal-tls: already running (pid $(<"$TEMPORAL_TLS_PIDFILE"))"
    return 0
  fi
  temporal_tls_setup_schema
  temporal_tls_write_config
  say "temporal-tls: starting the Temporal cluster (mTLS) on $TEMPORAL_TLS_ADDR"
  stack_launch temporal-tls "$TEMPORAL_TLS_PIDFILE" "$TEMPORAL_TLS_LOG" \
    "$TEMPORAL_TLS_SERVER_BIN" --config-file "$TEMPORAL_TLS_CONFIG" --allow-no-auth start
}

# The Temporal CLI (temporal.sh's) with sluice's client certificate.
temporal_tls_cli() {
  timeout 15 "$(temporal_bin)" "$@" --address "$TEMPORAL_TLS_ADDR" \
    --tls-cert-path "$TEMPORAL_TLS_PKI/client.pem" --tls-key-path "$TEMPORAL_TLS_PKI/client.key" \
    --tls-ca-path "$TEMPORAL_TLS_PKI/ca.pem" --tls-server-name localhost
}

temporal_tls_serving() {
  temporal_tls_cli operator cluster health 2>/dev/null | grep -q SERVING
}

temporal_tls_up_or_dead() {
  temporal_tls_running || return 0
  temporal_tls_serving
}

temporal_tls_namespace_ready() {
  temporal_tls_cli operator namespace describe --namespace "$TEMPORAL_TLS_NAMESPACE" >/dev/null 2>&1
}

# Registers the missing ones and says whether all are there; repeated: a namespace just created
# reaches the frontend's namespace cache some seconds later, and a create before that fails.
temporal_tls_register_attributes() {
  local list name missing=0
  list="$(temporal_tls_cli operator search-attribute list --namespace "$TEMPORAL_TLS_NAMESPACE" 2>/dev/null)" || return 1
  for name in "${TEMPORAL_SEARCH_ATTRIBUTES[@]}"; do
    grep -Eq "^[[:space:]]*${name}[[:space:]]+Keyword[[:space:]]*$" <<<"$list" && continue
    missing=1
    temporal_tls_cli operator search-attribute create --namespace "$TEMPORAL_TLS_NAMESPACE" \
      --name "$name" --type Keyword >/dev/null 2>&1 || true
  done
  ((missing == 0))
}

temporal-tls_health() {
  wait_until temporal_tls_up_or_dead || true
  temporal_tls_running || die "temporal-tls: the server exited during startup (see $TEMPORAL_TLS_LOG)"
  temporal_tls_serving || die "temporal-tls: not SERVING on $TEMPORAL_TLS_ADDR after ${STACK_TIMEOUT}s (see $TEMPORAL_TLS_LOG)"
  if ! temporal_tls_namespace_ready; then
    say "temporal-tls: registering namespace $TEMPORAL_TLS_NAMESPACE"
    temporal_tls_cli operator namespace create --namespace "$TEMPORAL_TLS_NAMESPACE" --retention 3d >/dev/null 2>&1 || true
    wait_until temporal_tls_namespace_ready || die "temporal-tls: cannot create namespace $TEMPORAL_TLS_NAMESPACE"
  fi
  wait_until temporal_tls_register_attributes \
    || die "temporal-tls: search attributes not registered on $TEMPORAL_TLS_NAMESPACE (see $TEMPORAL_TLS_LOG)"
}

temporal-tls_stop() {
  stack_stop temporal-tls "$TEMPORAL_TLS_PIDFILE" temporal_tls_running
}

temporal-tls_status() {
  stack_status temporal-tls "$TEMPORAL_TLS_PIDFILE" temporal_tls_running temporal_tls_serving \
    "$TEMPORAL_TLS_ADDR, mTLS, namespace $TEMPORAL_TLS_NAMESPACE" "not SERVING on $TEMPORAL_TLS_ADDR"
}

# Not TEMPORAL_*: those would point every process at the cluster. A test or a worker that wants
# it maps these onto TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_TLS_* (docs/temporal.md).
temporal-tls_env() {
  printf 'export SLUICE_TEMPORAL_TLS_ADDRESS=%q\n' "$TEMPORAL_TLS_ADDR"
  printf 'export SLUICE_TEMPORAL_TLS_NAMESPACE=%q\n' "$TEMPORAL_TLS_NAMESPACE"
  printf 'export SLUICE_TEMPORAL_TLS_PKI=%q\n' "$TEMPORAL_TLS_PKI"
}

temporal-tls_logs() {
  printf '%s\n' "$TEMPORAL_TLS_LOG"
}

temporal-tls_ready_message() {
  say "Temporal cluster (mTLS): $TEMPORAL_TLS_ADDR, namespace $TEMPORAL_TLS_NAMESPACE, certificates in $TEMPORAL_TLS_PKI"
}
