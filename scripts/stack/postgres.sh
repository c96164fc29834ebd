# shellcheck shell=bash
# Local PostgreSQL for scripts/stack.sh: a private cluster under
# $SLUICE_DATA_DIR/pg on its own port, never the system's cluster.
# Sourced after lib.sh.

SLUICE_PG_PORT="${SLUICE_PG_PORT:-54329}"

PG_DATA="$SLUICE_DATA_DIR/pg"
PG_LOG="$STACK_LOG_DIR/postgres.log"
# Tests open several pools at once; the default 100 runs out.
PG_MAX_CONNECTIONS=200
# Postgres's default 128 MB cache holds less than one 100,000-chunk dataset's vectors and keyword
# entries, so every search read thousands of pages from the OS (bench:search, docs/search.md).
SLUICE_PG_SHARED_BUFFERS="${SLUICE_PG_SHARED_BUFFERS:-1GB}"
# The default random_page_cost (4) prices a disk that seeks; here every page is in memory or on an
# SSD, and with 4 the planner scans the dense tables' wide rows instead of their covering index.
PG_RANDOM_PAGE_COST=1.1
PG_DATABASES=(sluice sluice_test)

# Highest installed Debian PostgreSQL (/usr/lib/postgresql/<major>/bin), or
# SLUICE_PG_BINDIR if the caller points elsewhere. Empty when none.
postgres_bindir() {
  if [[ -n "${SLUICE_PG_BINDIR:-}" ]]; then
    printf '%s\n' "$SLUICE_PG_BINDIR"
    return 0
  fi
  local dir
  dir="$(find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/postgres' -printf '%h\n' 2>/dev/null | sort -V | tail -n 1)"
  printf '%s\n' "$dir"
}

PG_BINDIR="$(postgres_bindir)"

# Server tools run as the `postgres` OS user when we are root (postgres refuses
# to run as root). `cd /` first: runuser keeps the cwd, and an unreadable one
# such as /root makes initdb/pg_ctl print spurious warnings.
pg_run() {
  local tool="$1"
  shift
  if is_root; then
    (cd / && runuser -u postgres -- "$PG_BINDIR/$tool" "$@")
  else
    "$PG_BINDIR/$tool" "$@"
  fi
}

# psql over TCP as the superuser; -X ignores ~/.psqlrc so output is parseable.
pg_psql() {
  pg_run psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$SLUICE_PG_PORT" -U postgres "$@"
}

postgres_install() {
  PG_BINDIR="$(postgres_bindir)"
  if [[ -n "${SLUICE_PG_BINDIR:-}" && ! -x "$SLUICE_PG_BINDIR/postgres" ]]; then
    die "SLUICE_PG_BINDIR=$SLUICE_PG_BINDIR has no postgres server binary"
  fi
  if [[ -z "$PG_BINDIR" || ! -x "$PG_BINDIR/postgres" ]]; then
    is_root || die "PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin; install them (e.g. 'sudo apt-get install postgresql') or set SLUICE_PG_BINDIR"
    command -v apt-get >/dev/null 2>&1 || die "PostgreSQL server binaries not found and apt-get is unavailable; install PostgreSQL 15+ or set SLUICE_PG_BINDIR"
    say "postgres: installing Debian's postgresql package"
    stack_apt_install postgresql >>"$STACK_INSTALL_LOG" 2>&1 \
      || die "apt-get install postgresql failed (details in $STACK_INSTALL_LOG)"
    PG_BINDIR="$(postgres_bindir)"
    [[ -n "$PG_BINDIR" ]] || die "apt-get installed postgresql but no server binaries appeared in /usr/lib/postgresql/*/bin"
  fi
  if is_root; then
    command -v runuser >/dev/null 2>&1 || die "runuser (util-linux) is required to run PostgreSQL as the postgres user"
    id -u postgres >/dev/null 2>&1 || die "the 'postgres' OS user does not exist (it comes with Debian's postgresql package)"
  fi
  postgres_prepare_dirs
  # The vector store's extension, in the same (apt) lane as the server it extends.
  pgvector_install
}

postgres_preflight() {
  # The install ran in a lane of its own (a subshell): what it installed is found again here.
  PG_BINDIR="$(postgres_bindir)"
  postgres_running && return 0
  if port_in_use "$SLUICE_PG_PORT"; then
    die "port $SLUICE_PG_PORT is already in use by another process; stop it or set SLUICE_PG_PORT"
  fi
}

postgres_prepare_dirs() {
  mkdir -p "$PG_DATA" "$STACK_RUN_DIR" "$STACK_LOG_DIR"
  touch "$PG_LOG"
  if is_root; then
    # postgres writes its data dir, its socket (in run/) and its log; the rest
    # of the data dir stays root's.
    chown postgres: "$PG_DATA" "$STACK_RUN_DIR" "$PG_LOG"
    if ! runuser -u postgres -- test -w "$PG_DATA" -a -w "$STACK_RUN_DIR" 2>/dev/null; then
      die "the postgres OS user cannot reach $SLUICE_DATA_DIR (a parent directory is not traversable); set SLUICE_DATA_DIR to a path it can reach, e.g. /var/tmp/sluice"
    fi
  fi
  chmod 700 "$PG_DATA"
  # Unix socket paths are limited to 107 bytes; a deep SLUICE_DATA_DIR breaks
  # postgres startup with an obscure message, so say it plainly.
  local socket="$STACK_RUN_DIR/.s.PGSQL.$SLUICE_PG_PORT"
  if ((${#socket} > 107)); then
    die "SLUICE_DATA_DIR is too long for a Unix socket path ($socket); set SLUICE_DATA_DIR to a shorter path"
  fi
}

# Running = postmaster.pid names a live process whose command line has our
# data dir. Stricter than `pg_ctl status`, which trusts any live pid: after a
# SIGKILL (CI ends leftover processes) the pid may belong to something else.
postgres_running() {
  [[ -r "$PG_DATA/postmaster.pid" ]] || return 1
  local pid
  pid="$(head -n 1 "$PG_DATA/postmaster.pid")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$PG_DATA"
}

postgres_start() {
  if [[ ! -f "$PG_DATA/PG_VERSION" ]]; then
    say "postgres: initialising $PG_DATA"
    pg_run initdb -D "$PG_DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >>"$STACK_INSTALL_LOG" 2>&1 \
      || die "postgres: initdb failed (details in $STACK_INSTALL_LOG)"
  fi
  # A data dir from another major version cannot be started by these binaries.
  local data_major bin_major
  data_major="$(<"$PG_DATA/PG_VERSION")"
  bin_major="$(basename "$(dirname "$PG_BINDIR")")"
  if [[ "$bin_major" =~ ^[0-9]+$ && "$data_major" != "$bin_major" ]]; then
    die "$PG_DATA was initialised by PostgreSQL $data_major but the binaries are $bin_major; remove it or set SLUICE_PG_BINDIR"
  fi
  if postgres_running; then
    say "postgres: already running"
    return 0
  fi
  # Not running, so any lock file left is stale (server killed): postgres would
  # refuse to start if its recorded pid now belongs to another process.
  rm -f "$PG_DATA/postmaster.pid" "$STACK_RUN_DIR/.s.PGSQL.$SLUICE_PG_PORT.lock"
  say "postgres: starting on 127.0.0.1:$SLUICE_PG_PORT"
  # Options go through pg_ctl's shell, hence the inner single quotes.
  # 9>&-: the postmaster must not inherit (and so hold) the stack lock.
  pg_run pg_ctl -D "$PG_DATA" -l "$PG_LOG" -w -t "$STACK_TIMEOUT" \
    -o "-p $SLUICE_PG_PORT -k '$STACK_RUN_DIR' -c listen_addresses=127.0.0.1 -c max_connections=$PG_MAX_CONNECTIONS -c shared_buffers=$SLUICE_PG_SHARED_BUFFERS -c random_page_cost=$PG_RANDOM_PAGE_COST" \
    start >/dev/null 9>&- \
    || die "postgres: failed to start (see $PG_LOG)"
}

postgres_ready() {
  pg_run pg_isready -q -h 127.0.0.1 -p "$SLUICE_PG_PORT" -U postgres
}

postgres_health() {
  wait_until postgres_ready \
    || die "postgres: not accepting connections on 127.0.0.1:$SLUICE_PG_PORT after ${STACK_TIMEOUT}s (see $PG_LOG)"
  local db
  for db in "${PG_DATABASES[@]}"; do
    if [[ -z "$(pg_psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]]; then
      say "postgres: creating database $db"
      pg_psql -d postgres -c "CREATE DATABASE \"$db\"" >/dev/null \
        || die "postgres: cannot create database $db (see $PG_LOG)"
    fi
  done
}

postgres_stop() {
  if ! postgres_running; then
    say "postgres: not running"
    return 0
  fi
  pg_run pg_ctl -D "$PG_DATA" stop -m fast -w >/dev/null || die "postgres: pg_ctl stop failed (see $PG_LOG)"
  say "postgres: stopped"
}

postgres_status() {
  if postgres_running && postgres_ready; then
    say "postgres: up (127.0.0.1:$SLUICE_PG_PORT, databases ${PG_DATABASES[*]}, data $PG_DATA)"
  else
    say "postgres: down"
    return 1
  fi
}

postgres_env() {
  printf 'export DATABASE_URL=%q\n' "postgres://postgres@127.0.0.1:$SLUICE_PG_PORT/sluice"
  printf 'export TEST_DATABASE_URL=%q\n' "postgres://postgres@127.0.0.1:$SLUICE_PG_PORT/sluice_test"
}

postgres_logs() {
  printf '%s\n' "$PG_LOG"
}

postgres_ready_message() {
  say "PostgreSQL: postgres://postgres@127.0.0.1:$SLUICE_PG_PORT (databases: ${PG_DATABASES[*]})"
}
