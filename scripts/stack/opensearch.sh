# shellcheck shell=bash
# A single-node OpenSearch 2.19 for scripts/stack.sh (the keyword index's production adapter).
# No distribution tarball can be fetched here, so infra/opensearch-node/ is a tiny Java
# launcher built with Maven from the server's Maven Central artifacts: the node runs in one
# JVM with Netty4 (HTTP + transport), analysis-common and reindex (_delete_by_query) as
# classpath plugins, and no security plugin.
# Sourced after lib.sh.

SLUICE_OPENSEARCH_PORT="${SLUICE_OPENSEARCH_PORT:-9200}"
# A cold JVM on two busy cores needs longer than the other services; never less than theirs.
OPENSEARCH_TIMEOUT="${SLUICE_OPENSEARCH_TIMEOUT:-$((STACK_TIMEOUT > 180 ? STACK_TIMEOUT : 180))}"
# Modest on purpose: it shares two cores and the machine with Temporal, Postgres and the tests.
# SLUICE_OPENSEARCH_JAVA_OPTS is appended, so it can override any of these.
OPENSEARCH_JAVA_OPTS=(-Xms512m -Xmx1g -Xss1m -XX:+UseG1GC -XX:ParallelGCThreads=1 -XX:ConcGCThreads=1
  -XX:+ExitOnOutOfMemoryError -Dfile.encoding=UTF-8 -Djava.awt.headless=true)

OPENSEARCH_SRC="$SLUICE_REPO_DIR/infra/opensearch-node"
OPENSEARCH_BUILD="$SLUICE_DATA_DIR/opensearch/build"
# Written after a successful build; a source newer than it means the build is stale.
OPENSEARCH_STAMP="$OPENSEARCH_BUILD/.built"
OPENSEARCH_HOME="$SLUICE_DATA_DIR/opensearch/node"
OPENSEARCH_PIDFILE="$STACK_RUN_DIR/opensearch.pid"
OPENSEARCH_LOG="$STACK_LOG_DIR/opensearch.log"
OPENSEARCH_MAIN="dev.sluice.opensearch.SingleNode"
OPENSEARCH_URL="http://127.0.0.1:$SLUICE_OPENSEARCH_PORT"

opensearch_java() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    printf '%s\n' "$JAVA_HOME/bin/java"
  else
    command -v java || true
  fi
}

# Major version of a `java` binary (17 from 'openjdk version "17.0.15"'); empty if unknown.
opensearch_java_major() {
  "$1" -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p'
}

opensearch_build_fresh() {
  [[ -f "$OPENSEARCH_STAMP" && -f "$OPENSEARCH_BUILD/classes/${OPENSEARCH_MAIN//.//}.class" ]] || return 1
  [[ -z "$(find "$OPENSEARCH_SRC/pom.xml" "$OPENSEARCH_SRC/src" -newer "$OPENSEARCH_STAMP" -print -quit)" ]]
}

opensearch_install() {
  local java major
  java="$(opensearch_java)"
  [[ -n "$java" ]] || die "opensearch: Java 17+ is required but 'java' is not installed (e.g. 'apt-get install openjdk-17-jdk-headless', or set JAVA_HOME)"
  major="$(opensearch_java_major "$java")"
  if [[ ! "$major" =~ ^[0-9]+$ ]] || ((major < 17)); then
    die "opensearch: Java 17+ is required but $java is version '${major:-unknown}' (set JAVA_HOME to a JDK 17+)"
  fi
  command -v curl >/dev/null 2>&1 || die "opensearch: curl is required for its health check (e.g. 'apt-get install curl')"
  opensearch_build_fresh && return 0

  command -v mvn >/dev/null 2>&1 || die "opensearch: Maven ('mvn') is required to build infra/opensearch-node (e.g. 'apt-get install maven')"
  # The running node uses the build's jars and classes: never rebuild them under its feet.
  if opensearch_running; then
    say "opensearch: infra/opensearch-node changed since the last build; stopping the node to rebuild it"
    opensearch_stop
  fi
  say "opensearch: building the node launcher (infra/opensearch-node; the first build downloads ~50 MB of jars)"
  # Clean output: a jar dropped from the pom must not linger on the classpath.
  rm -rf "$OPENSEARCH_STAMP" "${OPENSEARCH_BUILD:?}/classes" "${OPENSEARCH_BUILD:?}/lib"
  mkdir -p "$OPENSEARCH_BUILD"
  # Stamped with the time the build started, so a source edited during the build counts as newer.
  touch "$OPENSEARCH_STAMP.new"
  local mvn_args=(-B -q -f "$OPENSEARCH_SRC/pom.xml" "-Dsluice.build.dir=$OPENSEARCH_BUILD" package)
  printf '\n==== %s stack.sh: mvn %s\n' "$(date -u +%FT%TZ)" "${mvn_args[*]}" >>"$STACK_INSTALL_LOG"
  # Offline first: with the jars already in ~/.m2 that skips every registry round trip.
  # 9>&-: Maven's JVM must not hold the stack lock either.
  if ! mvn -o "${mvn_args[@]}" >>"$STACK_INSTALL_LOG" 2>&1 9>&-; then
    printf '==== offline build failed (jars missing from ~/.m2?); retrying online\n' >>"$STACK_INSTALL_LOG"
    mvn "${mvn_args[@]}" >>"$STACK_INSTALL_LOG" 2>&1 9>&- \
      || die "opensearch: building infra/opensearch-node failed (details in $STACK_INSTALL_LOG)"
  fi
  mv "$OPENSEARCH_STAMP.new" "$OPENSEARCH_STAMP"
}

opensearch_running() {
  pidfile_alive "$OPENSEARCH_PIDFILE" "$OPENSEARCH_MAIN $OPENSEARCH_HOME"
}

opensearch_preflight() {
  opensearch_running && return 0
  if port_in_use "$SLUICE_OPENSEARCH_PORT"; then
    die "port $SLUICE_OPENSEARCH_PORT is already in use by another process; stop it or set SLUICE_OPENSEARCH_PORT"
  fi
}

opensearch_start() {
  if opensearch_running; then
    say "opensearch: already running (pid $(<"$OPENSEARCH_PIDFILE"))"
    return 0
  fi
  mkdir -p "$OPENSEARCH_HOME/tmp"
  local java
  java="$(opensearch_java)"
  # Word splitting of the extra options is intended (like JAVA_OPTS everywhere).
  # shellcheck disable=SC2206
  local launch=(env "SLUICE_OPENSEARCH_PORT=$SLUICE_OPENSEARCH_PORT"
    "$java" "${OPENSEARCH_JAVA_OPTS[@]}" "-Djava.io.tmpdir=$OPENSEARCH_HOME/tmp" ${SLUICE_OPENSEARCH_JAVA_OPTS:-}
    -cp "$OPENSEARCH_BUILD/classes:$OPENSEARCH_BUILD/lib/*" "$OPENSEARCH_MAIN" "$OPENSEARCH_HOME")

  say "opensearch: starting on $OPENSEARCH_URL"
  # env execs java in turn, so the pid file names the JVM itself.
  stack_launch opensearch "$OPENSEARCH_PIDFILE" "$OPENSEARCH_LOG" "${launch[@]}"
}

# The cluster's status word (green, yellow, red), or nothing when it does not answer.
opensearch_cluster_status() {
  curl -fsS --max-time 5 "$OPENSEARCH_URL/_cluster/health" 2>/dev/null \
    | sed -nE 's/.*"status" *: *"([a-z]+)".*/\1/p'
}

opensearch_healthy() {
  local status
  status="$(opensearch_cluster_status)"
  [[ "$status" == green || "$status" == yellow ]]
}

opensearch_up_or_dead() {
  # Stop polling early if the JVM died (port race, bad data dir, out of memory).
  opensearch_running || return 0
  opensearch_healthy
}

opensearch_health() {
  STACK_TIMEOUT="$OPENSEARCH_TIMEOUT" wait_until opensearch_up_or_dead || true
  opensearch_running || die "opensearch: the node exited during startup (see $OPENSEARCH_LOG)"
  opensearch_healthy \
    || die "opensearch: cluster not green/yellow on $OPENSEARCH_URL after ${OPENSEARCH_TIMEOUT}s (status '$(opensearch_cluster_status)'; see $OPENSEARCH_LOG)"
}

opensearch_stop() {
  # SIGTERM runs the launcher's shutdown hook, which closes the node (flushes, releases locks).
  stack_stop opensearch "$OPENSEARCH_PIDFILE" opensearch_running
}

opensearch_status() {
  stack_status opensearch "$OPENSEARCH_PIDFILE" opensearch_running opensearch_healthy \
    "$OPENSEARCH_URL, data $OPENSEARCH_HOME" "cluster health not green/yellow on $OPENSEARCH_URL"
}

opensearch_env() {
  printf 'export OPENSEARCH_URL=%q\n' "$OPENSEARCH_URL"
}

opensearch_logs() {
  printf '%s\n' "$OPENSEARCH_LOG"
}

opensearch_ready_message() {
  say "OpenSearch: $OPENSEARCH_URL (single node, no security)"
}
